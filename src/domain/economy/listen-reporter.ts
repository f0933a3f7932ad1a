import { notify } from '../../lib/notify.ts'
import { usePlayerStore, type PlayerState } from '../playback/player-store.ts'
import { useRewardStore } from './reward-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import { capNote, useRewardRules } from './reward-rules.ts'
import { ListenSessions, HEARTBEAT_MS, type ListenServer, type ListenSnapshot } from './listen-session.ts'
import { noteInteraction, startInteractionWatch, takeInteraction } from './interaction.ts'
import { useListenPrompt } from './listen-prompt.ts'
import { useListenMoment } from './listen-moment.ts'
import { recordCreditedListen } from './ledger-cache.ts'
import { confirmStillListening, reportListen, startListen, type ListenAnswer, type WalletBasics } from '../../backend/wallet.ts'

// The player's playId restarts at 0 on every page load; the server keeps one session per play key,
// so each page gets its own prefix and a reload can never make a new play look like a replay.
const pageNonce = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`

/** This page's key for a play: the player's play id, or a station piece's recipe id. */
export const playKey = (playId: number | string): string => `${pageNonce}:${playId}`

/** The wallet figures every listening answer carries. */
const walletOf = (a: ListenAnswer): WalletBasics => ({ balance: a.balance, daily_earned: a.daily_earned, listens_today: a.listens_today })

/**
 * Applies the server's answer about a listening session: wallet figures, "Still listening?", and
 * once per decision the credited amount or why the listen earns nothing.
 */
export function applyListenAnswer(
  songId: string,
  answer: ListenAnswer,
  previous?: ListenAnswer,
  title?: string,
  titleOf: (id: string) => string | undefined = () => undefined,
): void {
  const session = useSessionStore.getState()
  useListenPrompt.setState({ needsInteraction: answer.needs_interaction })
  if (answer.session_id === null && answer.reason !== 'unknown_song') return
  session.setWallet(walletOf(answer))
  const dailyCapNow = answer.daily_cap ?? useRewardRules.getState().rules.listen.daily_cap
  const moment = useListenMoment.getState()
  // The start of this play settled the previous one and credited it: say so, naming that song, or
  // the balance would rise under the new song's name.
  if (answer.previous && answer.previous.credited > 0) {
    if (session.user)
      recordCreditedListen(session.user.id, answer.previous.song_id, { session_id: null, credited: answer.previous.credited })
    const previousTitle = titleOf(answer.previous.song_id) ?? null
    moment.announceCredit({
      songId: answer.previous.song_id,
      title: previousTitle,
      credited: answer.previous.credited,
      listensToday: answer.listens_today,
      dailyCap: dailyCapNow,
      dailyEarned: answer.daily_earned,
    })
    notify.success(`+${answer.previous.credited} CUBE${previousTitle ? ` · ${previousTitle}` : ''}`, {
      id: 'listen-reward',
      description: `Listening reward for the song before this one · balance ${answer.balance} CUBE`,
    })
  }
  moment.setNow({ songId, title: title ?? null, heardSeconds: answer.heard_seconds, reason: answer.reason, credited: answer.credited })
  // Only a new decision is news: heartbeats repeat the session's state.
  if (answer.reason === null || (previous?.reason === answer.reason && previous.credited === answer.credited)) return
  // The cap the server applied to this listen; the rules' figure only if its answer lacked one.
  const dailyCap = answer.daily_cap ?? useRewardRules.getState().rules.listen.daily_cap
  session.setLastListen({
    songId,
    credited: answer.credited,
    capReached: answer.reason === 'daily_cap',
    listensToday: answer.listens_today,
    dailyCap,
    reason: answer.reason,
  })
  if (answer.credited > 0) {
    // The answer is the whole news: the balance is set above and the row written into the cached ledger.
    if (session.user) recordCreditedListen(session.user.id, songId, answer)
    useRewardStore.getState().setCreditedAmount(songId, answer.credited)
    moment.announceCredit({
      songId,
      title: title ?? null,
      credited: answer.credited,
      listensToday: answer.listens_today,
      dailyCap,
      dailyEarned: answer.daily_earned,
    })
    notify.success(`+${answer.credited} CUBE${title ? ` · ${title}` : ''}`, {
      id: 'listen-reward',
      description: `Listening reward${title ? ` for "${title}"` : ''} · balance ${answer.balance} CUBE`,
    })
  } else if (answer.reason === 'daily_cap') {
    notify(capNote(answer.listens_today, dailyCap), { id: 'listen-cap', description: 'Keep listening: rewards start again at 00:00 UTC.' })
  } else if (answer.reason === 'cube_cap') {
    const cubeCap = useRewardRules.getState().rules.listen.daily_cube_cap
    notify(`Listening has paid today's most (${cubeCap} CUBE)`, {
      id: 'listen-cap',
      description: 'Keep listening: rewards start again at 00:00 UTC.',
    })
  } else if (answer.reason === 'song_limit') {
    notify('This song has earned twice today', {
      id: 'listen-song-limit',
      description: 'Other songs still earn; this one earns again tomorrow (UTC).',
    })
  }
}

/** The listener answered "Still listening?": the server resumes rewards now (`confirm` is the call that tells it). */
export async function answerStillListening(confirm: () => Promise<ListenAnswer> = confirmStillListening): Promise<void> {
  noteInteraction()
  takeInteraction()
  useListenPrompt.setState({ answering: true })
  try {
    const answer = await confirm()
    useListenPrompt.setState({ needsInteraction: answer.needs_interaction })
    if (answer.session_id) useSessionStore.getState().setWallet(walletOf(answer))
  } finally {
    useListenPrompt.setState({ answering: false })
  }
}

const snapshot = (s: PlayerState): ListenSnapshot => ({
  playKey: s.currentSong ? playKey(s.playId) : null,
  itemId: s.currentSong?.id ?? null,
  isPlaying: s.isPlaying,
})

let stop: (() => void) | undefined

export interface ListenReporterOptions {
  /** Milliseconds, monotonic (tests pass a fake clock). */
  now?: () => number
  /** The server calls (tests pass fakes). */
  server?: ListenServer
  /** Whether the user interacted since the last call (tests pass their own). */
  interaction?: () => boolean
  /** Drives the heartbeat (tests call the returned tick themselves). */
  every?: (ms: number, fn: () => void) => () => void
}

const realServer: ListenServer = {
  start: (songId, key, interacted) => startListen(songId, key, interacted),
  report: (sessionId, playing, interacted, ended) => reportListen(sessionId, playing, interacted, ended),
}

const interval = (ms: number, fn: () => void) => {
  const id = setInterval(fn, ms)
  return () => clearInterval(id)
}

export interface AccountListeningOptions {
  server: ListenServer
  /** Milliseconds, monotonic. */
  now: () => number
  /** Whether the user interacted since the last call; default: the page's real input. */
  interaction?: () => boolean
  /** Drives the heartbeat; default setInterval. */
  every?: (ms: number, fn: () => void) => () => void
  /** Names the source in console warnings. */
  label: string
}

/**
 * Listening sessions of the signed-in account, as every player needs them (the song player, CUBE
 * Radio): the server's answers applied while the same account is signed in (`titles` names the
 * items in the toasts), a fresh session for the current play when another account signs in, and
 * the heartbeat. The caller feeds `sessions.observe()` from its player and calls `stop()`.
 */
export function accountListenSessions({ server, now, interaction = takeInteraction, every = interval, label }: AccountListeningOptions) {
  const titles = new Map<string, string>()
  let user = useSessionStore.getState().user?.id
  const sessions = new ListenSessions({
    server,
    now,
    takeInteraction: interaction,
    canReport: () => useSessionStore.getState().user !== null,
    onAnswer: (itemId, answer, previous) => {
      if (useSessionStore.getState().user?.id === user)
        applyListenAnswer(itemId, answer, previous, titles.get(itemId), (id) => titles.get(id))
    },
    onError: (error) => console.warn(`${label}: listen report failed`, error),
  })
  // Signing in mid-play starts a session for what is playing.
  const unsubscribeSession = useSessionStore.subscribe((s) => {
    if (s.user?.id === user) return
    user = s.user?.id
    useListenMoment.getState().clear()
    sessions.reset()
  })
  const stopTimer = every(Math.min(HEARTBEAT_MS, 1000), () => sessions.tick())
  return {
    sessions,
    titles,
    stop: () => {
      unsubscribeSession()
      stopTimer()
    },
  }
}

/** Keeps the server's listening session in step with the player (one session per play). */
export function startListenReporter({
  now = () => performance.now(),
  server = realServer,
  interaction,
  every = interval,
}: ListenReporterOptions = {}): () => void {
  if (stop) return stop
  if (!interaction && typeof window !== 'undefined') startInteractionWatch()
  const listening = accountListenSessions({ server, now, interaction, every, label: 'player' })
  const unsubscribe = usePlayerStore.subscribe((state) => {
    if (state.currentSong) listening.titles.set(state.currentSong.id, state.currentSong.title)
    listening.sessions.observe(snapshot(state))
  })
  listening.sessions.observe(snapshot(usePlayerStore.getState()))
  stop = () => {
    unsubscribe()
    listening.stop()
    stop = undefined
  }
  return stop
}
