import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

const toasts: { message: string; description?: string }[] = []
vi.mock('../../lib/notify.ts', () => ({
  notify: Object.assign((message: string, options?: { description?: string }) => void toasts.push({ message, ...options }), {
    error: (message: string) => void toasts.push({ message: `error:${message}` }),
    success: (message: string) => void toasts.push({ message: `success:${message}` }),
  }),
}))

import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { usePlayerStore } from '../playback/player-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import { playKey } from './listen-reporter.ts'
import { flushOfflinePlays, MAX_WAITING, startOfflinePlays, useOfflinePlays } from './offline-plays.ts'
import type { OfflinePlayAnswer } from '../../backend/wallet.ts'

// Plays made offline: recorded on the device as they start, reported when the network is back,
// and never with a duration (the server takes the song and the time, and credits nothing).
const [first, second] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0]]
let online = false
let clock = Date.parse('2026-11-26T20:00:00Z')
type Sent = { songId: string; key: string; playedAt: string }
const sent: Sent[] = []
let answer: (call: Sent) => Promise<OfflinePlayAnswer> = async () => ({ recorded: true, reason: 'offline' })

beforeAll(() => {
  startOfflinePlays({
    online: () => online,
    now: () => clock,
    report: (songId, key, playedAt) => {
      const call = { songId, key, playedAt }
      sent.push(call)
      return answer(call)
    },
  })
})

beforeEach(() => {
  online = false
  sent.length = 0
  toasts.length = 0
  answer = async () => ({ recorded: true, reason: 'offline' })
  useOfflinePlays.setState({ waiting: [] })
  useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
  usePlayerStore.setState({ currentSong: null, queue: [], isPlaying: false, position: 0, duration: 0, playId: 0 })
})

const stopPlaying = () => usePlayerStore.setState({ isPlaying: false })
/** Starts `song` and lets its audio play (the deck moves the position). */
const play = (song: typeof first) => {
  usePlayerStore.getState().playSong(song)
  usePlayerStore.setState({ position: 0.5 })
}

describe('offline plays', () => {
  it('records each play that starts offline, under the key its session would have had, with the time it started', () => {
    play(first)
    clock += 90_000
    play(second)
    const { waiting } = useOfflinePlays.getState()
    expect(waiting.map((p) => p.songId)).toEqual([first.id, second.id])
    expect(waiting[0]!.key).toBe(playKey(1))
    expect(waiting[1]!.playedAt).toBe(new Date(clock).toISOString())
    expect(Object.keys(waiting[0]!).sort()).toEqual(['key', 'playedAt', 'songId', 'title', 'userId'])
  })

  it('records nothing online, signed out, paused, never heard, or for a track that lives only on the device', () => {
    online = true
    play(first)
    online = false
    useSessionStore.getState().setUser(null)
    play(first)
    useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
    usePlayerStore.setState({ currentSong: first, isPlaying: false, playId: 99 })
    // Started, but its audio never played (a song not saved offline cannot load).
    usePlayerStore.getState().playSong(second)
    usePlayerStore.setState({ error: 'Could not play', isPlaying: false })
    play({ ...first, id: 'mine', audioUrl: 'idb:mine' })
    expect(useOfflinePlays.getState().waiting.map((p) => p.songId)).toEqual([])
  })

  it('reports the waiting plays when back online, says how many were added, and says they earn nothing', async () => {
    play(first)
    play(second)
    stopPlaying()
    online = true
    expect(await flushOfflinePlays()).toBe(2)
    expect(sent.map((s) => s.songId)).toEqual([first.id, second.id])
    expect(useOfflinePlays.getState().waiting).toEqual([])
    expect(toasts).toEqual([
      {
        id: 'offline-plays',
        message: '2 plays made offline added to your history',
        description:
          'Listening earns CUBE only while the server can measure it, so plays made offline count as plays, not as rewarded listens.',
      },
    ])
  })

  it('keeps plays when the network fails again, drops the ones the server answered, and skips the play that is still going', async () => {
    play(first)
    play(second)
    play(first)
    online = true
    let calls = 0
    answer = async () => {
      calls += 1
      if (calls === 1) return { recorded: false, reason: 'duplicate' }
      throw new TypeError('Failed to fetch')
    }
    expect(await flushOfflinePlays()).toBe(0)
    // The first was answered (a duplicate), the second hit the network failure, the third (still
    // playing) was never sent and waits for the flush after the network failure.
    expect(useOfflinePlays.getState().waiting.map((p) => p.key)).toEqual([playKey(2), playKey(3)])
    expect(toasts).toEqual([])
    answer = async () => ({ recorded: true, reason: 'offline' })
    sent.length = 0
    expect(await flushOfflinePlays()).toBe(1)
    // The live play is dropped: now online, its listening session measures it.
    expect(sent.map((s) => s.key)).toEqual([playKey(2)])
    expect(useOfflinePlays.getState().waiting).toEqual([])
  })

  it('drops a play the server refuses in words (e.g. a bad time) and goes on', async () => {
    play(first)
    play(second)
    stopPlaying()
    online = true
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    answer = async (call) => {
      if (call.songId === first.id) throw Object.assign(new Error('invalid_played_at'), { code: '22023' })
      return { recorded: true, reason: 'offline' }
    }
    expect(await flushOfflinePlays()).toBe(1)
    expect(useOfflinePlays.getState().waiting).toEqual([])
    expect(toasts[0]!.message).toBe('1 play made offline added to your history')
    warn.mockRestore()
  })

  it('keeps a play refused for an expired token (refreshed in a moment) and sends it again later', async () => {
    play(first)
    stopPlaying()
    online = true
    answer = async () => {
      throw Object.assign(new Error('JWT expired'), { code: 'PGRST303' })
    }
    expect(await flushOfflinePlays()).toBe(0)
    expect(useOfflinePlays.getState().waiting).toHaveLength(1)
    answer = async () => ({ recorded: true, reason: 'offline' })
    expect(await flushOfflinePlays()).toBe(1)
    expect(useOfflinePlays.getState().waiting).toEqual([])
  })

  it("reports only the signed-in listener's plays; another account's wait for them", async () => {
    play(first)
    useSessionStore.getState().setUser({ id: 'u2', email: 'b@b.c' })
    play(second)
    stopPlaying()
    await flushOfflinePlays() // the one signing in as u2 started: still offline, it sends nothing
    online = true
    expect(await flushOfflinePlays()).toBe(1)
    expect(sent.map((s) => s.songId)).toEqual([second.id])
    expect(useOfflinePlays.getState().waiting.map((p) => p.userId)).toEqual(['u1'])
    // Signing back in as u1 reports theirs.
    useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
    await vi.waitFor(() => expect(useOfflinePlays.getState().waiting).toEqual([]))
  })

  it(`keeps at most the newest ${MAX_WAITING} plays`, () => {
    for (let i = 0; i < MAX_WAITING + 5; i++) play(i % 2 ? first : second)
    const { waiting } = useOfflinePlays.getState()
    expect(waiting).toHaveLength(MAX_WAITING)
    expect(waiting.at(-1)!.key).toBe(playKey(MAX_WAITING + 5))
  })
})
