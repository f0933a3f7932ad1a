/**
 * Plays made with the network off, kept on the device (localStorage 'cube-offline-plays') and
 * reported when the network is back (public.listen_offline). The server records each as a play and
 * credits nothing: a listen earns only for time the server measured itself, and nobody measured
 * time that passed offline. The client reports which song was played and when, never for how long.
 *
 *   startOfflinePlays(options)      records offline plays and reports them once online
 *   flushOfflinePlays()             reports what is waiting (the 'online' event calls it)
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { notify } from '../../lib/notify.ts'
import { safeJsonStorage } from '../../lib/safe-persist-store.ts'
import { reportOfflinePlay, type OfflinePlayAnswer } from '../../backend/wallet.ts'
import { usePlayerStore } from '../playback/player-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import { playKey } from './listen-reporter.ts'

export interface OfflinePlay {
  /** The play's key, as its listening session would have had (one record per play on the server). */
  key: string
  songId: string
  title: string
  userId: string
  /** ISO time the play started. */
  playedAt: string
}

/** Kept at most: a device offline for days keeps the newest plays. */
export const MAX_WAITING = 200

interface OfflinePlaysState {
  waiting: OfflinePlay[]
}

export const useOfflinePlays = create<OfflinePlaysState>()(
  persist(() => ({ waiting: [] as OfflinePlay[] }), {
    name: 'cube-offline-plays',
    storage: safeJsonStorage<OfflinePlaysState>(),
    merge: (persisted, current) => {
      const waiting = (persisted as { waiting?: unknown } | undefined)?.waiting
      return { ...current, waiting: Array.isArray(waiting) ? waiting.filter(isOfflinePlay).slice(-MAX_WAITING) : [] }
    },
  }),
)

function isOfflinePlay(raw: unknown): raw is OfflinePlay {
  const p = raw as Record<string, unknown> | null
  return (
    !!p &&
    typeof p.key === 'string' &&
    typeof p.songId === 'string' &&
    typeof p.title === 'string' &&
    typeof p.userId === 'string' &&
    typeof p.playedAt === 'string' &&
    !Number.isNaN(Date.parse(p.playedAt))
  )
}

export interface OfflinePlaysOptions {
  /** Whether the network is up (tests pass their own). */
  online?: () => boolean
  /** The server call (tests pass a fake). */
  report?: (songId: string, key: string, playedAt: string) => Promise<OfflinePlayAnswer>
  /** Wall-clock now, ms (tests pass a fake clock). */
  now?: () => number
}

let options: Required<OfflinePlaysOptions> = {
  online: () => typeof navigator === 'undefined' || navigator.onLine,
  report: reportOfflinePlay,
  now: () => Date.now(),
}

/** A refusal the server gave in words about the play (a SQLSTATE), not a network failure. */
const isAnswer = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code
  // PGRST30x: the session's token (expired while offline, refreshed in a moment), not the play.
  return typeof code === 'string' && code !== '' && !code.startsWith('PGRST30')
}

/** While plays wait, how often to try again (a token refreshed, a server back up). */
export const RETRY_MS = 60_000

let flushed: Promise<unknown> = Promise.resolve()

/**
 * Reports the signed-in listener's waiting plays; resolves to how many the server recorded. Calls
 * run one after another, so a play is never sent twice at once.
 */
export function flushOfflinePlays(): Promise<number> {
  const run = flushed.then(flushOnce, flushOnce)
  flushed = run.catch(() => 0)
  return run
}

async function flushOnce(): Promise<number> {
  const user = useSessionStore.getState().user?.id
  if (!user || !options.online()) return 0
  const player = usePlayerStore.getState()
  // The play still going on gets a live session now that the server can measure it again.
  const live = player.currentSong && player.isPlaying ? playKey(player.playId) : null
  let recorded = 0
  for (const play of useOfflinePlays.getState().waiting.filter((p) => p.userId === user)) {
    if (play.key !== live) {
      try {
        const answer = await options.report(play.songId, play.key, play.playedAt)
        if (answer.recorded) recorded++
      } catch (error) {
        if (!isAnswer(error)) break // the network went again, or the token is being refreshed: the rest waits
        console.warn('[offline plays] the server refused a play', play, error)
      }
    }
    useOfflinePlays.setState((s) => ({ waiting: s.waiting.filter((p) => p.key !== play.key) }))
  }
  if (recorded > 0)
    notify(`${recorded === 1 ? '1 play' : `${recorded} plays`} made offline added to your history`, {
      id: 'offline-plays',
      description:
        'Listening earns CUBE only while the server can measure it, so plays made offline count as plays, not as rewarded listens.',
    })
  return recorded
}

let stop: (() => void) | undefined

/** Records each play that starts while offline; reports them when the network is back. */
export function startOfflinePlays(overrides: OfflinePlaysOptions = {}): () => void {
  if (stop) return stop
  options = { ...options, ...overrides }
  let lastPlay = usePlayerStore.getState().playId
  // A play started offline counts once its audio has played (a song that was not saved never does).
  let started: { playId: number; play: OfflinePlay } | null = null
  const unsubscribe = usePlayerStore.subscribe((s) => {
    if (s.playId !== lastPlay) {
      lastPlay = s.playId
      started = null
      const user = useSessionStore.getState().user?.id
      const song = s.currentSong
      // Only songs the server knows (the catalogue, published songs): a listener's own tracks on
      // the device are not listens the server counts.
      if (s.isPlaying && song && user && !options.online() && !song.audioUrl.startsWith('idb:'))
        started = {
          playId: s.playId,
          play: {
            key: playKey(s.playId),
            songId: song.id,
            title: song.title,
            userId: user,
            playedAt: new Date(options.now()).toISOString(),
          },
        }
    }
    if (started && started.playId === s.playId && s.position > 0) {
      const { play } = started
      started = null
      useOfflinePlays.setState((st) => ({ waiting: [...st.waiting, play].slice(-MAX_WAITING) }))
    }
  })
  const onOnline = () => void flushOfflinePlays()
  if (typeof window !== 'undefined') window.addEventListener('online', onOnline)
  const unsubscribeSession = useSessionStore.subscribe((s, before) => {
    if (s.user?.id && s.user.id !== before.user?.id) void flushOfflinePlays()
  })
  const retry = setInterval(() => {
    if (useOfflinePlays.getState().waiting.length && options.online()) void flushOfflinePlays()
  }, RETRY_MS)
  void flushOfflinePlays()
  stop = () => {
    unsubscribe()
    unsubscribeSession()
    clearInterval(retry)
    if (typeof window !== 'undefined') window.removeEventListener('online', onOnline)
    stop = undefined
  }
  return stop
}
