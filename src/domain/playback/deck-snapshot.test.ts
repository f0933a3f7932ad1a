import { describe, expect, it } from 'vitest'
import { NO_REQUESTS, deckSnapshot, foldCommand } from './deck-snapshot.ts'
import type { Song } from '../../lib/catalogue/song.ts'

const song = (id: string, extra: Partial<Song> = {}): Song => ({
  id,
  title: id.toUpperCase(),
  artist: 'T',
  duration: '1:00',
  image: '/x.svg',
  audioUrl: `/audio/${id}.mp3`,
  ...extra,
})
const a = song('a', { loudnessLufs: -8, truePeakDbtp: -1 })
const b = song('b')
const loudness = { setting: 'normal' as const, limitingDb: 0, measured: (s: Song) => s }
const player = { queue: [a, b], currentSong: a, isPlaying: true, volume: 70, crossfadeSeconds: 2 }

describe('the deck snapshot the player service sends', () => {
  it('a load is one numbered request (with its start position); the store says the rest', () => {
    const r = foldCommand(NO_REQUESTS, { kind: 'load', song: a, autoplay: true, startAt: 12 })
    const snap = deckSnapshot(r, player, loudness)
    expect(snap.item).toMatchObject({ url: a.audioUrl, label: 'A', seq: r.load!.seq })
    // Normalised toward the target (-14 LUFS): a -8 LUFS song goes down 6 dB.
    expect(snap.item!.gainDb).toBeCloseTo(-6, 5)
    expect(snap.seek).toEqual({ seconds: 12, seq: r.seek!.seq })
    expect(snap.seek!.seq).toBeGreaterThan(r.load!.seq)
    expect(snap).toMatchObject({ next: { url: b.audioUrl, label: 'B', gainDb: 0 }, playing: true, volume: 70, crossfade: 2 })
    // The same requests give the same snapshot (nothing is applied twice); a new seek is a new number.
    expect(deckSnapshot(r, player, loudness)).toEqual(snap)
    const seeked = foldCommand(r, { kind: 'seek', seconds: 3 })
    expect(seeked.seek!.seq).toBeGreaterThan(r.seek!.seq)
  })

  it('stop leaves no item and nothing to follow; commands the store state carries change no request', () => {
    const r = foldCommand(NO_REQUESTS, { kind: 'load', song: a, autoplay: true })
    expect(foldCommand(r, { kind: 'volume', volume: 3 })).toBe(r)
    const stopped = deckSnapshot(foldCommand(r, { kind: 'stop' }), player, loudness)
    expect(stopped).toMatchObject({ item: null, next: null, playing: false })
  })
})
