import { notify } from '../../lib/notify.ts'
import { usePlayerStore, type PlayerState } from '../playback/player-store.ts'
import { useRewardStore } from './reward-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import { capNote, ListenTracker, type ListenReport, type PlaybackSnapshot } from './listen-tracker.ts'
import { useRewardRules } from './reward-rules.ts'
import { recordListen, type ListenAnswer } from '../../backend/wallet.ts'

// The player's playId restarts at 0 on every page load; the server deduplicates per play id, so
// each page gets its own prefix and a reload can never make a new play look like a replay.
const pageNonce = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`

export const playKey = (playId: number): string => `${pageNonce}:${playId}`

export { capNote }

/** Applies the server's answer: wallet figures, the credited amount shown to the user, the ledger views. */
export function applyListenAnswer(songId: string, answer: ListenAnswer, title?: string): void {
  const session = useSessionStore.getState()
  // The cap the server applied to this listen; the rules' figure only if its answer lacked one.
  const dailyCap = answer.daily_cap ?? useRewardRules.getState().rules.listen.daily_cap
  session.setWallet({ balance: answer.balance, daily_earned: answer.daily_earned, listens_today: answer.listens_today })
  session.setLastListen({
    songId,
    credited: answer.credited,
    capReached: answer.cap_reached,
    listensToday: answer.listens_today,
    dailyCap,
    reason: answer.reason,
  })
  session.bumpActivity()
  if (answer.credited > 0) {
    useRewardStore.getState().setCreditedAmount(songId, answer.credited)
    notify.success(`+${answer.credited} CUBE`, {
      id: 'listen-reward',
      description: `Listening reward${title ? ` for "${title}"` : ''} · balance ${answer.balance} CUBE`,
    })
  } else if (answer.cap_reached) {
    notify(capNote(answer.listens_today, dailyCap), { id: 'listen-cap', description: 'Keep listening: rewards start again at 00:00 UTC.' })
  }
}

const snapshot = (s: PlayerState): PlaybackSnapshot => ({
  songId: s.currentSong?.id ?? null,
  playId: s.playId,
  isPlaying: s.isPlaying,
  position: s.position,
  duration: s.duration,
})

let stop: (() => void) | undefined

export interface ListenReporterOptions {
  /** Milliseconds, monotonic (tests pass a fake clock). */
  now?: () => number
  /** The record_listen call (tests pass a fake rpc). */
  record?: (songId: string, seconds: number, playId: string) => Promise<ListenAnswer>
}

/** Watches the player and sends each qualifying listen to record_listen once per play. */
export function startListenReporter({ now = () => performance.now(), record = recordListen }: ListenReporterOptions = {}): () => void {
  if (stop) return stop
  const titles = new Map<string, string>()
  const tracker = new ListenTracker({
    now,
    canReport: () => useSessionStore.getState().user !== null,
    rules: () => useRewardRules.getState().rules.listen,
    report: async ({ songId, seconds, playId }: ListenReport) => {
      const userId = useSessionStore.getState().user?.id
      const answer = await record(songId, seconds, playKey(playId))
      if (useSessionStore.getState().user?.id === userId) applyListenAnswer(songId, answer, titles.get(songId))
    },
    onError: (error) => console.warn('listen report failed', error),
  })
  const unsubscribe = usePlayerStore.subscribe((state) => {
    if (state.currentSong) titles.set(state.currentSong.id, state.currentSong.title)
    tracker.observe(snapshot(state))
  })
  tracker.observe(snapshot(usePlayerStore.getState()))
  stop = () => {
    unsubscribe()
    stop = undefined
  }
  return stop
}
