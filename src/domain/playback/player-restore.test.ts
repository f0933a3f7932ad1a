import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { DeckEvent } from '../../engine/player-deck.ts'
import { PLAYER_STORAGE_KEY, SAVE_DELAY_MS, serializePlayer } from './player-persistence.ts'

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(() => {}, { error: () => {}, success: () => {} }) }))

const [a, b] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0]]

class MemoryStorage {
  map = new Map<string, string>()
  getItem = (k: string) => this.map.get(k) ?? null
  setItem = (k: string, v: string) => void this.map.set(k, v)
  removeItem = (k: string) => void this.map.delete(k)
}

const calls: string[] = []
const deck = {
  load: async (url: string) => void calls.push(`load:${url}`),
  play: async () => void calls.push('play'),
  pause: () => void calls.push('pause'),
  stop: () => void calls.push('stop'),
  seek: (s: number) => void calls.push(`seek:${s}`),
  setVolume: (v: number) => void calls.push(`volume:${v}`),
  on: (_l: (e: DeckEvent) => void) => () => {},
}

let storage: MemoryStorage
/** A fresh page: the store module is evaluated again against what the last page left in storage. */
async function openPage() {
  vi.resetModules()
  const [store, service, resume] = await Promise.all([
    import('./player-store.ts'),
    import('./player-service.ts'),
    import('./player-resume.ts'),
  ])
  return { ...store, attachDeck: service.attachDeck, resumeAfterReload: resume.resumeAfterReload }
}

beforeEach(() => {
  storage = new MemoryStorage()
  vi.stubGlobal('localStorage', storage)
  vi.stubGlobal('addEventListener', () => {})
  calls.length = 0
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('the player after a reload', () => {
  it('comes back paused on the same song, queue, position, volume and crossfade, without touching the deck', async () => {
    storage.setItem(PLAYER_STORAGE_KEY, serializePlayer({ queue: [a, b], currentSong: b, position: 37.5, volume: 40, crossfadeSeconds: 3 }))
    const { usePlayerStore } = await openPage()
    const s = usePlayerStore.getState()
    expect(s.queue.map((x) => x.id)).toEqual([a.id, b.id])
    expect(s.currentSong?.id).toBe(b.id)
    expect(s.position).toBe(37.5)
    expect(s.volume).toBe(40)
    expect(s.crossfadeSeconds).toBe(3)
    expect(s.isPlaying).toBe(false)
    expect(calls).toEqual([])
  })

  it('play resumes at the saved position; a seek before it moves that position', async () => {
    storage.setItem(PLAYER_STORAGE_KEY, serializePlayer({ queue: [a], currentSong: a, position: 20, volume: 80, crossfadeSeconds: 0 }))
    const { usePlayerStore, attachDeck } = await openPage()
    attachDeck(deck)
    calls.length = 0
    usePlayerStore.getState().seek(30)
    expect(calls).toEqual([])
    const before = usePlayerStore.getState().playId
    usePlayerStore.getState().play()
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toEqual([`load:${a.audioUrl}`, 'seek:30', 'play'])
    expect(usePlayerStore.getState().isPlaying).toBe(true)
    expect(usePlayerStore.getState().playId).toBe(before + 1)
    // Once loaded, play/pause are plain deck commands again.
    usePlayerStore.getState().pause()
    usePlayerStore.getState().play()
    await new Promise((r) => setTimeout(r, 0))
    expect(calls.slice(3)).toEqual(['pause', 'play'])
  })

  it('saves changes at most once per delay, with the latest state', async () => {
    vi.useFakeTimers()
    const { usePlayerStore, attachDeck } = await openPage()
    attachDeck(deck)
    usePlayerStore.getState().playSong(a)
    for (let t = 1; t <= 8; t++) usePlayerStore.setState({ position: t / 4 })
    expect(storage.getItem(PLAYER_STORAGE_KEY)).toBeNull()
    vi.advanceTimersByTime(SAVE_DELAY_MS)
    expect(JSON.parse(storage.getItem(PLAYER_STORAGE_KEY)!)).toMatchObject({ currentId: a.id, position: 2, queue: [{ id: a.id }] })
    // The crossfade setting is saved with the rest, and reaches the deck.
    usePlayerStore.getState().setCrossfade(5)
    vi.advanceTimersByTime(SAVE_DELAY_MS)
    expect(JSON.parse(storage.getItem(PLAYER_STORAGE_KEY)!)).toMatchObject({ crossfade: 5 })
  })

  it('a song playing when the page hid: its position to the second, and it plays on where sound is allowed', async () => {
    const hide: (() => void)[] = []
    vi.stubGlobal('addEventListener', (type: string, fn: () => void) => type === 'pagehide' && hide.push(fn))
    const first = await openPage()
    first.attachDeck(deck)
    first.usePlayerStore.getState().playSong(b)
    await new Promise((r) => setTimeout(r, 0))
    // The deck's last time event lands just before the reload, inside the save delay.
    first.usePlayerStore.setState({ position: 43.46 })
    for (const fn of hide) fn()
    expect(JSON.parse(storage.getItem(PLAYER_STORAGE_KEY)!)).toMatchObject({ currentId: b.id, position: 43.5, playing: true })

    calls.length = 0
    const allowed = await openPage()
    expect(allowed.usePlayerStore.getState()).toMatchObject({ position: 43.5, isPlaying: false, resumeOffered: true })
    allowed.attachDeck(deck)
    calls.length = 0
    expect(await allowed.resumeAfterReload(async () => true)).toBe(true)
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toEqual([`load:${b.audioUrl}`, 'seek:43.5', 'play'])
    expect(allowed.usePlayerStore.getState()).toMatchObject({ isPlaying: true, resumeOffered: false })
  })

  it('where sound needs a click: paused at the saved position with an offer to resume; a paused song offers nothing', async () => {
    storage.setItem(
      PLAYER_STORAGE_KEY,
      serializePlayer({ queue: [a], currentSong: a, position: 41.2, volume: 80, crossfadeSeconds: 0, isPlaying: true }),
    )
    const blocked = await openPage()
    blocked.attachDeck(deck)
    calls.length = 0
    expect(await blocked.resumeAfterReload(async () => false)).toBe(false)
    expect(calls).toEqual([])
    expect(blocked.usePlayerStore.getState()).toMatchObject({ position: 41.2, isPlaying: false, resumeOffered: true })
    storage.setItem(PLAYER_STORAGE_KEY, serializePlayer({ queue: [a], currentSong: a, position: 41.2, volume: 80, crossfadeSeconds: 0 }))
    const paused = await openPage()
    expect(paused.usePlayerStore.getState().resumeOffered).toBe(false)
    expect(await paused.resumeAfterReload(async () => true)).toBe(false)
  })

  it('an unreadable saved state is ignored: an empty player, not a crash', async () => {
    storage.setItem(PLAYER_STORAGE_KEY, '{"queue":[{"id":')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { usePlayerStore } = await openPage()
    expect(usePlayerStore.getState().currentSong).toBeNull()
    expect(warn).toHaveBeenCalled()
  })
})
