import { describe, expect, it } from 'vitest'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { MAX_SAVED_QUEUE, parseSavedPlayer, sanitizeSong, serializePlayer } from './player-persistence.ts'

const [a, b] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0]]

describe('saved player state', () => {
  it('round-trips the queue, current song, position, volume and crossfade', () => {
    const text = serializePlayer({ queue: [a, b], currentSong: b, position: 42.345, volume: 35, crossfadeSeconds: 4.5 })
    expect(parseSavedPlayer(text)).toEqual({ queue: [a, b], currentId: b.id, position: 42.3, volume: 35, crossfade: 4.5, playing: false })
  })

  it('keeps whether the song was playing, only with a song to resume', () => {
    expect(
      parseSavedPlayer(serializePlayer({ queue: [a], currentSong: a, position: 3, volume: 50, crossfadeSeconds: 0, isPlaying: true }))
        ?.playing,
    ).toBe(true)
    expect(parseSavedPlayer(JSON.stringify({ queue: [a], currentId: null, playing: true }))?.playing).toBe(false)
    expect(parseSavedPlayer(JSON.stringify({ queue: [a], currentId: a.id, playing: 'yes' }))?.playing).toBe(false)
  })

  it('restores the crossfade clamped to 0..12 s, and 0 (gapless) when it was never saved or is unusable', () => {
    const crossfadeOf = (value: unknown) => parseSavedPlayer(JSON.stringify({ queue: [a], currentId: a.id, crossfade: value }))?.crossfade
    expect(crossfadeOf(undefined)).toBe(0)
    expect(crossfadeOf('6')).toBe(0)
    expect(crossfadeOf(-2)).toBe(0)
    expect(crossfadeOf(30)).toBe(12)
    expect(crossfadeOf(6)).toBe(6)
  })

  it('ignores missing, unparsable and wrongly shaped text without throwing', () => {
    expect(parseSavedPlayer(null)).toBeNull()
    expect(parseSavedPlayer('{not json')).toBeNull()
    expect(parseSavedPlayer('42')).toBeNull()
    expect(parseSavedPlayer('{"queue": "nope", "currentId": 7}')).toEqual({
      queue: [],
      currentId: null,
      position: 0,
      volume: NaN,
      crossfade: 0,
      playing: false,
    })
  })

  it('drops songs whose audio died with the page (blob:) or is not ours, and duplicates', () => {
    const blob = { ...a, id: 'gen-1', audioUrl: 'blob:http://127.0.0.1/123' }
    const foreign = { ...a, id: 'x', audioUrl: 'https://evil.example/a.mp3' }
    const saved = parseSavedPlayer(
      JSON.stringify({ queue: [blob, foreign, a, a, { id: 3 }], currentId: 'gen-1', position: 10, volume: 80 }),
    )
    expect(saved?.queue.map((s) => s.id)).toEqual([a.id])
    // The current song was dropped, so nothing is current and the position is meaningless.
    expect(saved?.currentId).toBeNull()
    expect(saved?.position).toBe(0)
  })

  it('keeps IndexedDB audio (idb:) and replaces an unusable cover with the generated cover', () => {
    const song = sanitizeSong({
      id: 'gen-2',
      title: 'Mine',
      artist: 'Me',
      duration: '1:05',
      image: 'blob:x',
      audioUrl: 'idb:gen-2',
      mood: 'chill',
    })
    expect(song).toEqual({
      id: 'gen-2',
      title: 'Mine',
      artist: 'Me',
      duration: '1:05',
      image: '/images/covers/ai-generated.svg',
      audioUrl: 'idb:gen-2',
      mood: 'chill',
    })
  })

  it('clamps the volume and refuses negative or infinite positions', () => {
    expect(parseSavedPlayer(JSON.stringify({ queue: [a], currentId: a.id, position: -5, volume: 400 }))).toMatchObject({
      position: 0,
      volume: 100,
    })
    expect(parseSavedPlayer(JSON.stringify({ queue: [a], currentId: a.id, position: 'x', volume: -3 }))).toMatchObject({
      position: 0,
      volume: 0,
    })
  })

  it('bounds the restored queue', () => {
    const many = Array.from({ length: MAX_SAVED_QUEUE + 50 }, (_, i) => ({ ...a, id: `s-${i}` }))
    expect(parseSavedPlayer(JSON.stringify({ queue: many, currentId: null }))?.queue).toHaveLength(MAX_SAVED_QUEUE)
  })
})
