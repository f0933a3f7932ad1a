// Counts how long the current play has really been playing and decides when it qualifies as a
// listen. Pure (clock, rules and reporting injected) so it is tested without audio or a server.
import { FALLBACK_REWARD_RULES, type ListenRules } from './reward-rules.ts'

export { capNote } from './reward-rules.ts'

/** What the tracker needs to see of the player, each time the player store changes. */
export interface PlaybackSnapshot {
  songId: string | null
  /** Increments whenever a song starts a fresh play (replay of the same song included). */
  playId: number
  isPlaying: boolean
  /** Seconds into the track. */
  position: number
  /** Seconds; 0 or NaN while unknown. */
  duration: number
}

/** Above this a gap between two updates means a frozen tab or a stall, not listening. */
const MAX_STEP_SECONDS = 2
const RETRY_DELAY_MS = 5_000
const MAX_ATTEMPTS = 3

/**
 * A listen qualifies at min(qualify_seconds, qualify_fraction × the track), as the server rules
 * (30 s or half the track with the default rules); qualify_seconds while the length is unknown.
 */
export function qualifyingSeconds(
  durationSeconds: number,
  rules: Pick<ListenRules, 'qualify_seconds' | 'qualify_fraction'> = FALLBACK_REWARD_RULES.listen,
): number {
  return Number.isFinite(durationSeconds) && durationSeconds > 0
    ? Math.min(rules.qualify_seconds, durationSeconds * rules.qualify_fraction)
    : rules.qualify_seconds
}

export interface ListenReport {
  songId: string
  /** Whole seconds really played (never rounded up: the server only ever hears what happened). */
  seconds: number
  playId: number
}

export interface ListenTrackerOptions {
  /** Milliseconds, monotonic. */
  now: () => number
  /** Sends the listen; resolves once the server has answered. Rejections are retried a few times. */
  report: (listen: ListenReport) => Promise<void>
  /** False for visitors: nothing is sent, and the play still counts if they sign in before it ends. */
  canReport?: () => boolean
  /** The server's listening rules, read at every check (default: the documented fallback). */
  rules?: () => Pick<ListenRules, 'qualify_seconds' | 'qualify_fraction'>
  onError?: (error: unknown) => void
}

interface PlayState {
  key: string
  songId: string
  playId: number
  listened: number
  lastPosition: number
  lastAt: number
  wasPlaying: boolean
  status: 'counting' | 'sending' | 'done'
  attempts: number
  retryAt: number
}

export class ListenTracker {
  private play: PlayState | undefined
  private readonly opts: ListenTrackerOptions

  constructor(opts: ListenTrackerOptions) {
    this.opts = opts
  }

  /** Seconds of real playback counted for the current play. */
  get listenedSeconds(): number {
    return this.play?.listened ?? 0
  }

  get reported(): boolean {
    return this.play?.status === 'done'
  }

  observe(s: PlaybackSnapshot): void {
    const at = this.opts.now()
    if (!s.songId) {
      this.play = undefined
      return
    }
    const key = `${s.playId}:${s.songId}`
    const play = this.play
    if (!play || play.key !== key) {
      this.play = {
        key,
        songId: s.songId,
        playId: s.playId,
        listened: 0,
        lastPosition: s.position,
        lastAt: at,
        wasPlaying: s.isPlaying,
        status: 'counting',
        attempts: 0,
        retryAt: 0,
      }
      return
    }
    if (play.wasPlaying && s.isPlaying) {
      // Count what both the media clock and the wall clock agree on: a seek moves the position
      // without time passing, a stall lets time pass without the position moving.
      const advanced = s.position - play.lastPosition
      const elapsed = (at - play.lastAt) / 1000
      if (advanced > 0 && elapsed > 0) play.listened += Math.min(advanced, elapsed, MAX_STEP_SECONDS)
    }
    play.lastPosition = s.position
    play.lastAt = at
    play.wasPlaying = s.isPlaying
    this.maybeReport(play, s.duration, at)
  }

  private maybeReport(play: PlayState, duration: number, at: number) {
    if (play.status !== 'counting' || at < play.retryAt) return
    // Wait for whole seconds past the threshold, so the whole number sent still qualifies.
    const rules = this.opts.rules?.() ?? FALLBACK_REWARD_RULES.listen
    if (play.listened + 1e-6 < Math.ceil(qualifyingSeconds(duration, rules) - 1e-6)) return
    if (this.opts.canReport && !this.opts.canReport()) return
    play.status = 'sending'
    play.attempts += 1
    this.opts
      .report({ songId: play.songId, seconds: Math.floor(play.listened + 1e-6), playId: play.playId })
      .then(() => {
        play.status = 'done'
      })
      .catch((error: unknown) => {
        this.opts.onError?.(error)
        // The server is idempotent per play, so a retry can never credit twice.
        play.status = play.attempts >= MAX_ATTEMPTS ? 'done' : 'counting'
        play.retryAt = this.opts.now() + RETRY_DELAY_MS
      })
  }
}
