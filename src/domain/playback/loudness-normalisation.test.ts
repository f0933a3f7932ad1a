import { beforeEach, describe, expect, it, vi } from 'vitest'
import { CATALOGUE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { DeckEvent } from '../../engine/player-deck.ts'
import { MAX_LIMITING_DB, normalisationGainDb, songGainDb, targetLufs } from './loudness-normalisation.ts'
import { parseNormalisation, useNormalisationStore } from './normalisation-store.ts'
import { usePlayerStore, type DeckLike } from './player-store.ts'
import { attachDeck, setLoudnessLookup } from './player-service.ts'

describe('normalisationGainDb', () => {
  it('moves a song to the target: −20 LUFS up 6 dB, −8 LUFS down 6 dB for Normal (−14)', () => {
    expect(normalisationGainDb(-20, -10, -14)).toBeCloseTo(6, 9)
    expect(normalisationGainDb(-8, -0.5, -14)).toBeCloseTo(-6, 9)
  })

  it('cuts a boost so the true peak stays at −1 dBTP at most (no limiter: gain is reduced instead)', () => {
    // −20 LUFS with a −4 dBTP peak: +6 dB would peak at +2 dBTP; +3 dB peaks at −1.
    expect(normalisationGainDb(-20, -4, -14)).toBeCloseTo(3, 9)
    // A song already peaking above −1 dBTP is turned down even at its target.
    expect(normalisationGainDb(-14, 0.5, -14)).toBeCloseTo(-1.5, 9)
  })

  it('with the true-peak limiter in the path, a boost may take the peaks up to MAX_LIMITING_DB over the ceiling', () => {
    // −20 LUFS, −4 dBTP: the full +6 dB (peaks at +2 dBTP, 3 dB for the limiter to take back).
    expect(normalisationGainDb(-20, -4, -14, MAX_LIMITING_DB)).toBeCloseTo(6, 9)
    // −24 LUFS, −2 dBTP: +10 dB would need 9 dB of limiting; it gets 1 + 7 = +8 dB and plays 2 dB under.
    expect(normalisationGainDb(-24, -2, -14, MAX_LIMITING_DB)).toBeCloseTo(8, 9)
    // Turning down never needs the limiter, and an unknown peak still allows no boost.
    expect(normalisationGainDb(-8, -0.5, -14, MAX_LIMITING_DB)).toBeCloseTo(-6, 9)
    expect(normalisationGainDb(-20, null, -14, MAX_LIMITING_DB)).toBe(0)
  })

  it('with the limiter every catalogue song reaches Normal (−14) and Loud (−11); without it 10 and 37 fall short by over 1 LU', () => {
    const short = (setting: 'normal' | 'loud', limiting: number) =>
      CATALOGUE_SONGS.filter((s) => targetLufs(setting)! - (s.loudnessLufs! + songGainDb(s, setting, limiting)) > 1).length
    expect(CATALOGUE_SONGS).toHaveLength(45)
    expect([short('normal', MAX_LIMITING_DB), short('loud', MAX_LIMITING_DB)]).toEqual([0, 0])
    expect([short('normal', 0), short('loud', 0)]).toEqual([10, 37])
    // Every song is given its whole way to Loud's target.
    const worst = Math.max(...CATALOGUE_SONGS.map((s) => -11 - (s.loudnessLufs! + songGainDb(s, 'loud', MAX_LIMITING_DB))))
    expect(worst).toBeLessThan(1e-9)
  })

  it('plays unmeasured songs and the Off setting as they are; an unknown peak allows no boost', () => {
    expect(normalisationGainDb(null, -3, -14)).toBe(0)
    expect(normalisationGainDb(undefined, undefined, -14)).toBe(0)
    expect(normalisationGainDb(-20, -3, null)).toBe(0)
    expect(normalisationGainDb(-20, null, -14)).toBe(0)
    expect(normalisationGainDb(-8, null, -14)).toBeCloseTo(-6, 9)
  })

  it('has the targets Loud −11, Normal −14, Quiet −19 LUFS and Off', () => {
    expect([targetLufs('loud'), targetLufs('normal'), targetLufs('quiet'), targetLufs('off')]).toEqual([-11, -14, -19, null])
  })

  it('finds a catalogue song’s measurement by id when the row it came from has none (recommendations, radio)', () => {
    const song = CATALOGUE_SONGS.find((s) => s.loudnessLufs! > -12)!
    const bare = { ...song, loudnessLufs: undefined, truePeakDbtp: undefined }
    expect(songGainDb(bare, 'normal')).toBeCloseTo(-14 - song.loudnessLufs!, 9)
    expect(songGainDb({ ...bare, id: 'idb-upload' }, 'normal')).toBe(0)
  })
})

describe('the setting on the deck', () => {
  class GainDeck implements DeckLike {
    gains: number[] = []
    async load() {}
    async play() {}
    pause() {}
    stop() {}
    seek() {}
    setVolume() {}
    setItemGainDb(db: number) {
      this.gains.push(db)
    }
    on(_l: (e: DeckEvent) => void) {
      return () => {}
    }
  }
  const flush = () => new Promise((r) => setTimeout(r, 0))
  let deck: GainDeck
  beforeEach(() => {
    useNormalisationStore.getState().setSetting('normal')
    deck = new GainDeck()
    attachDeck(deck)
  })

  it('boosts past the peaks only on a deck that has the limiter', async () => {
    const quiet = CATALOGUE_SONGS.find((s) => -14 - s.loudnessLufs! > -1 - s.truePeakDbtp! + 1)!
    usePlayerStore.getState().playSong(quiet)
    await flush()
    expect(deck.gains.at(-1)).toBeCloseTo(-1 - quiet.truePeakDbtp!, 9)
    const limited = Object.assign(new GainDeck(), { hasLimiter: true })
    attachDeck(limited)
    usePlayerStore.getState().playSong(quiet)
    await flush()
    expect(limited.gains.at(-1)).toBeCloseTo(-14 - quiet.loudnessLufs!, 9)
  })

  it('applies the song’s gain when it loads, and again when the listener changes the setting', async () => {
    const loud = CATALOGUE_SONGS.find((s) => s.loudnessLufs! > -11)!
    usePlayerStore.getState().playSong(loud)
    await flush()
    expect(deck.gains.at(-1)).toBeCloseTo(-14 - loud.loudnessLufs!, 9)
    useNormalisationStore.getState().setSetting('quiet')
    expect(deck.gains.at(-1)).toBeCloseTo(-19 - loud.loudnessLufs!, 9)
    useNormalisationStore.getState().setSetting('off')
    expect(deck.gains.at(-1)).toBe(0)
  })

  it('asks the server once for the loudness of a published song that came without it (a recommendation)', async () => {
    const asked: string[] = []
    setLoudnessLookup(async (id) => {
      asked.push(id)
      return { loudnessLufs: -8, truePeakDbtp: -2 }
    })
    const published = { id: 'pub-1', title: 'P', artist: 'A', duration: '1:00', image: '', audioUrl: '/storage/v1/object/public/a/b.webm' }
    usePlayerStore.getState().playSong(published)
    await flush()
    await flush()
    expect(deck.gains.at(-1)).toBeCloseTo(-6, 9)
    usePlayerStore.getState().playSong({ ...published, id: 'idb-local', audioUrl: 'idb:local' })
    await flush()
    expect(deck.gains.at(-1)).toBe(0)
    usePlayerStore.getState().playSong(published)
    await flush()
    await flush()
    expect(deck.gains.at(-1)).toBeCloseTo(-6, 9)
    expect(asked).toEqual(['pub-1'])
  })

  it('keeps the setting on this device, and reads anything unknown as Normal', () => {
    const items = new Map<string, string>()
    vi.stubGlobal('localStorage', { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => items.set(k, v) })
    useNormalisationStore.getState().setSetting('loud')
    expect(localStorage.getItem('cube.playback.normalisation.v1')).toBe('loud')
    expect(parseNormalisation('loud')).toBe('loud')
    expect(parseNormalisation('max')).toBe('normal')
    expect(parseNormalisation(null)).toBe('normal')
    vi.unstubAllGlobals()
  })
})
