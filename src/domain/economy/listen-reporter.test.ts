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
import { useRewardStore } from './reward-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import { startListenReporter } from './listen-reporter.ts'
import { SilentDeck } from '../playback/silent-deck.ts'
import type { ListenAnswer } from '../../backend/wallet.ts'

// The reporter wired to the real player store, driven by a fake audio deck, a fake clock and a fake rpc.
let clock = 0
const deck = new SilentDeck()
const calls: { songId: string; seconds: number; playId: string }[] = []
let nextAnswer: Partial<ListenAnswer> = {}
const flush = () => new Promise((r) => setTimeout(r, 0))
const [song] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0]]

/** Advances wall time and the media clock together, as timeupdate would, 4 times a second. */
function playFor(seconds: number) {
  for (let i = 0; i < seconds * 4; i++) {
    clock += 250
    const { position } = usePlayerStore.getState()
    deck.listener?.({ type: 'time', position: position + 0.25, duration: 80 })
  }
}

beforeAll(() => {
  attachDeck(deck)
  startListenReporter({
    now: () => clock,
    record: async (songId, seconds, playId) => {
      calls.push({ songId, seconds, playId })
      return {
        credited: 2,
        balance: 102,
        daily_earned: 2,
        listens_today: 1,
        daily_cap: 20,
        cap_reached: false,
        reason: 'credited',
        ...nextAnswer,
      }
    },
  })
})

beforeEach(() => {
  calls.length = 0
  toasts.length = 0
  nextAnswer = {}
  useSessionStore.getState().setSession(null, false)
  usePlayerStore.setState({ currentSong: null, queue: [], isPlaying: false, position: 0, duration: 0, playId: 0 })
})

const signIn = () => {
  useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
  useSessionStore.getState().setWallet({ balance: 100, daily_earned: 0, listens_today: 0 })
}

describe('listen reporter', () => {
  it('sends one record_listen per play once 30 s have really played, and applies the server’s answer', async () => {
    signIn()
    usePlayerStore.getState().playSong(song)
    await flush()
    playFor(29.5)
    await flush()
    expect(calls).toHaveLength(0)
    playFor(1)
    await flush()
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ songId: song.id, seconds: 30 })
    expect(calls[0]!.playId).toMatch(/:1$/)
    playFor(40)
    await flush()
    expect(calls).toHaveLength(1)
    const s = useSessionStore.getState()
    expect(s.wallet).toEqual({ balance: 102, daily_earned: 2, listens_today: 1 })
    expect(s.lastListen).toMatchObject({ songId: song.id, credited: 2, capReached: false })
    expect(useRewardStore.getState().credited[song.id]).toBe(2)
    expect(toasts).toContain('success:+2 CUBE')
  })

  it('does not count seeks towards the threshold', async () => {
    signIn()
    usePlayerStore.getState().playSong(song)
    await flush()
    playFor(10)
    usePlayerStore.getState().seek(75)
    deck.listener?.({ type: 'time', position: 75, duration: 80 })
    playFor(4)
    await flush()
    expect(calls).toHaveLength(0)
  })

  it('gives a fresh play its own play id, and shows the cap note when the server credits nothing', async () => {
    signIn()
    nextAnswer = { credited: 0, balance: 140, daily_earned: 40, listens_today: 20, cap_reached: true, reason: 'daily_cap' }
    usePlayerStore.getState().playSong(song)
    await flush()
    playFor(31)
    usePlayerStore.getState().playSong(song) // same song again: a new play
    await flush()
    playFor(31)
    await flush()
    expect(calls).toHaveLength(2)
    expect(calls[0]!.playId).not.toBe(calls[1]!.playId)
    expect(useSessionStore.getState().lastListen).toMatchObject({ credited: 0, capReached: true, listensToday: 20 })
    expect(toasts).toContain('Daily listening cap reached (20/20)')
    expect(toasts.some((t) => t.startsWith('success:+'))).toBe(false)
  })

  it('reports nothing for visitors', async () => {
    usePlayerStore.getState().playSong(song)
    await flush()
    playFor(40)
    await flush()
    expect(calls).toHaveLength(0)
  })
})
