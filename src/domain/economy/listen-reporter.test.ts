import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

const toasts: string[] = []
vi.mock('../../lib/notify.ts', () => {
  const toast = Object.assign((m: string) => void toasts.push(m), {
    error: (m: string) => void toasts.push(`error:${m}`),
    success: (m: string) => void toasts.push(`success:${m}`),
  })
  return { notify: toast }
})

import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { attachDeck } from '../playback/player-service.ts'
import { usePlayerStore } from '../playback/player-store.ts'
import { useListenMoment } from './listen-moment.ts'
import { useRewardStore } from './reward-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import { startListenReporter } from './listen-reporter.ts'
import { useListenPrompt } from './listen-prompt.ts'
import { HEARTBEAT_MS } from './listen-session.ts'
import { SilentDeck } from '../playback/silent-deck.ts'
import type { ListenAnswer } from '../../backend/wallet.ts'

// The reporter wired to the real player store, driven by a fake audio deck, a fake clock, a fake
// server and a hand-driven timer: what it sends, and what it does with the server's answers.
let clock = 0
let tick: () => void = () => {}
const deck = new SilentDeck()
type Call =
  | { kind: 'start'; item: string; key: string; interacted: boolean }
  | { kind: 'report'; session: string; playing: boolean; ended: boolean }
const calls: Call[] = []
let interacted = false
let nextAnswer: Partial<ListenAnswer> = {}
let reportsEnded = false
let sessions = 0
const flush = () => new Promise((r) => setTimeout(r, 0))
const [song] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0]]

const answer = (session: string | null): ListenAnswer => ({
  session_id: session,
  heard_seconds: 0,
  ended: false,
  credited: 0,
  balance: 100,
  daily_earned: 0,
  listens_today: 0,
  daily_cap: 20,
  cap_reached: false,
  reason: null,
  needs_interaction: false,
  ...nextAnswer,
})

/** Lets `seconds` pass on the clock and the media clock, with the reporter's timer firing each second. */
async function playFor(seconds: number) {
  for (let i = 0; i < seconds; i++) {
    clock += 1000
    const { position } = usePlayerStore.getState()
    deck.listener?.({ type: 'time', position: position + 1, duration: 80 })
    tick()
    await flush()
  }
}

beforeAll(() => {
  attachDeck(deck)
  startListenReporter({
    now: () => clock,
    interaction: () => {
      const was = interacted
      interacted = false
      return was
    },
    every: (_ms, fn) => {
      tick = fn
      return () => {}
    },
    server: {
      start: async (item, key, withInteraction) => {
        calls.push({ kind: 'start', item, key, interacted: withInteraction })
        return answer(`s${++sessions}`)
      },
      report: async (session, playing, _interacted, ended) => {
        calls.push({ kind: 'report', session, playing, ended })
        return { ...answer(session), ended: ended || reportsEnded }
      },
    },
  })
})

beforeEach(() => {
  calls.length = 0
  toasts.length = 0
  nextAnswer = {}
  useSessionStore.getState().setSession(null, false)
  useListenPrompt.setState({ needsInteraction: false })
  usePlayerStore.setState({ currentSong: null, queue: [], isPlaying: false, position: 0, duration: 0, playId: 0 })
})

const signIn = () => {
  useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
  useSessionStore.getState().setWallet({ balance: 100, daily_earned: 0, listens_today: 0 })
}

describe('listen reporter', () => {
  it('opens one server session per play, sends a heartbeat every 15 s while playing, and never a duration', async () => {
    signIn()
    interacted = true
    usePlayerStore.getState().playSong(song)
    await flush()
    expect(calls).toEqual([{ kind: 'start', item: song.id, key: expect.stringMatching(/:1$/), interacted: true }])
    await playFor(31)
    const reports = calls.filter((c) => c.kind === 'report')
    expect(reports).toHaveLength(Math.floor(31_000 / HEARTBEAT_MS))
    expect(reports.every((c) => c.kind === 'report' && c.playing && !c.ended)).toBe(true)
    // Nothing sent carries seconds: only the item, the play key, playing or paused, ended.
    for (const c of calls) expect(Object.keys(c).sort()).not.toContain('seconds')
  })

  it('tells the server at once when the music pauses, and sends nothing while paused', async () => {
    signIn()
    usePlayerStore.getState().playSong(song)
    await flush()
    await playFor(3)
    usePlayerStore.setState({ isPlaying: false })
    await flush()
    expect(calls.at(-1)).toEqual({ kind: 'report', session: expect.any(String), playing: false, ended: false })
    const before = calls.length
    await playFor(60)
    expect(calls.length).toBe(before)
  })

  it('a replay of the same song is a new play with its own key', async () => {
    signIn()
    usePlayerStore.getState().playSong(song)
    await flush()
    usePlayerStore.getState().playSong(song)
    await flush()
    const starts = calls.filter((c) => c.kind === 'start')
    expect(starts).toHaveLength(2)
    expect(starts[0]!.kind === 'start' && starts[1]!.kind === 'start' && starts[0]!.key !== starts[1]!.key).toBe(true)
  })

  it('applies a credit once (wallet, reward pop, one toast), however many heartbeats repeat it', async () => {
    signIn()
    usePlayerStore.getState().playSong(song)
    await flush()
    nextAnswer = { credited: 2, balance: 102, daily_earned: 2, listens_today: 1, reason: 'credited' }
    await playFor(46)
    const s = useSessionStore.getState()
    expect(s.wallet).toEqual({ balance: 102, daily_earned: 2, listens_today: 1 })
    expect(s.lastListen).toMatchObject({ songId: song.id, credited: 2, capReached: false })
    expect(useRewardStore.getState().credited[song.id]).toBe(2)
    expect(toasts.filter((t) => t === `success:+2 CUBE · ${song.title}`)).toHaveLength(1)
    expect(useListenMoment.getState().credit).toMatchObject({ songId: song.id, title: song.title, credited: 2, listensToday: 1 })
  })

  it('says in words why a listen earns nothing: the daily cap, the song limit', async () => {
    signIn()
    nextAnswer = { listens_today: 20, cap_reached: true, reason: 'daily_cap' }
    usePlayerStore.getState().playSong(song)
    await flush()
    await playFor(16)
    expect(toasts).toContain('Daily listening cap reached (20/20)')
    nextAnswer = { reason: 'song_limit' }
    usePlayerStore.getState().playSong(song)
    await flush()
    expect(toasts).toContain('This song has earned twice today')
    expect(useSessionStore.getState().lastListen).toMatchObject({ reason: 'song_limit' })
  })

  it('raises "Still listening?" when the server asks for an interaction, and lowers it when it no longer does', async () => {
    signIn()
    nextAnswer = { needs_interaction: true, reason: 'inactive' }
    usePlayerStore.getState().playSong(song)
    await flush()
    expect(useListenPrompt.getState().needsInteraction).toBe(true)
    nextAnswer = {}
    await playFor(16)
    expect(useListenPrompt.getState().needsInteraction).toBe(false)
  })

  it('sends nothing for visitors, and opens a session for the current play when they sign in', async () => {
    usePlayerStore.getState().playSong(song)
    await flush()
    await playFor(20)
    expect(calls).toHaveLength(0)
    signIn()
    await flush()
    expect(calls).toEqual([expect.objectContaining({ kind: 'start', item: song.id })])
  })

  it('opens a new session for the same play when the server ended it (another tab or the radio started one)', async () => {
    signIn()
    usePlayerStore.getState().playSong(song)
    await flush()
    reportsEnded = true
    await playFor(15)
    reportsEnded = false
    await playFor(1)
    const starts = calls.filter((c) => c.kind === 'start')
    expect(starts).toHaveLength(2)
    expect(starts[1]!.kind === 'start' && starts[1]!.key).toBe(starts[0]!.kind === 'start' && `${starts[0]!.key}~1`)
  })

  it('ends the session when the player is emptied', async () => {
    signIn()
    usePlayerStore.getState().playSong(song)
    await flush()
    usePlayerStore.setState({ currentSong: null, isPlaying: false })
    await flush()
    expect(calls.at(-1)).toEqual({ kind: 'report', session: expect.any(String), playing: false, ended: true })
  })
})
