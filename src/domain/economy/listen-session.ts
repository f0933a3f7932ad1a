// Keeps the server's listening session in step with the player. The server measures listening
// itself (supabase/schemas/listening.sql): this only says when a play starts, whether it is
// playing or paused (every HEARTBEAT_MS while playing: the server counts at most 90 s per gap), and
// whether the user interacted since the last call. It never sends a duration. Pure: the clock, the
// server calls and what to do with an answer are injected, so it is tested without audio or a server.
import type { ListenAnswer } from '../../backend/wallet.ts'

export const HEARTBEAT_MS = 15_000
const RETRY_MS = 5_000

/** What the sessions need to see of a player, each time it changes. */
export interface ListenSnapshot {
  /** Unique per play (a replay of the same song is a new play); null when nothing is loaded. */
  playKey: string | null
  /** What the server credits: a song id, or a station piece's recipe id. */
  itemId: string | null
  isPlaying: boolean
}

export interface ListenServer {
  start(itemId: string, playKey: string, interacted: boolean): Promise<ListenAnswer>
  report(sessionId: string, playing: boolean, interacted: boolean, ended: boolean): Promise<ListenAnswer>
}

export interface ListenSessionsOptions {
  server: ListenServer
  /** Milliseconds, monotonic. */
  now: () => number
  /** True once per interaction: whether the user touched the app since the last call that asked. */
  takeInteraction: () => boolean
  /** False for visitors: nothing is sent; a session starts when they sign in mid-play. */
  canReport: () => boolean
  onAnswer: (itemId: string, answer: ListenAnswer, previous: ListenAnswer | undefined) => void
  onError?: (error: unknown) => void
}

interface Play {
  /** The key sent to the server: the play's own, with a suffix after the server ended a session of it. */
  playKey: string
  /** The snapshot's key for this play. */
  baseKey: string
  restarts: number
  itemId: string
  sessionId: string | null
  /** What the server last heard: playing or paused. */
  sentPlaying: boolean
  lastSentAt: number
  busy: boolean
  /** The server opened no session for this play (unknown item): nothing more to send. */
  dead: boolean
  retryAt: number
  answer: ListenAnswer | undefined
}

export class ListenSessions {
  private play: Play | undefined
  private wantPlaying = false
  private readonly opts: ListenSessionsOptions

  constructor(opts: ListenSessionsOptions) {
    this.opts = opts
  }

  get sessionId(): string | null {
    return this.play?.sessionId ?? null
  }

  /** Another account signed in: the current play starts a session of its own. */
  reset(): void {
    if (this.play) this.play = { ...this.play, sessionId: null, dead: false, busy: false, retryAt: 0, answer: undefined }
    this.tick()
  }

  observe(s: ListenSnapshot): void {
    this.wantPlaying = s.isPlaying
    const current = this.play
    if (current && current.baseKey !== s.playKey) {
      // The next start ends this session on the server; when nothing follows, end it now.
      if (!s.playKey && current.sessionId) this.send(current, false, true)
      this.play = undefined
    }
    if (s.playKey && s.itemId && !this.play) {
      this.play = {
        playKey: s.playKey,
        baseKey: s.playKey,
        restarts: 0,
        itemId: s.itemId,
        sessionId: null,
        sentPlaying: false,
        lastSentAt: 0,
        busy: false,
        dead: false,
        retryAt: 0,
        answer: undefined,
      }
    }
    this.tick()
  }

  /** Called on every change and by a timer: starts, reports a change, or sends the heartbeat. */
  tick(): void {
    const play = this.play
    if (!play || play.busy || play.dead || !this.opts.canReport()) return
    const at = this.opts.now()
    if (at < play.retryAt) return
    if (!play.sessionId) {
      // A session starts only once the music really plays.
      if (this.wantPlaying) this.begin(play)
      return
    }
    if (play.sentPlaying !== this.wantPlaying || (this.wantPlaying && at - play.lastSentAt >= HEARTBEAT_MS)) {
      this.send(play, this.wantPlaying, false)
    }
  }

  private begin(play: Play): void {
    play.busy = true
    this.opts.server.start(play.itemId, play.playKey, this.opts.takeInteraction()).then(
      (answer) => {
        play.busy = false
        play.sessionId = answer.session_id
        play.dead = answer.session_id === null
        play.sentPlaying = true
        play.lastSentAt = this.opts.now()
        this.accept(play, answer, false)
        if (this.play === play) this.tick()
      },
      (error: unknown) => this.failed(play, error),
    )
  }

  private send(play: Play, playing: boolean, ended: boolean): void {
    if (!play.sessionId) return
    play.busy = true
    play.sentPlaying = playing
    play.lastSentAt = this.opts.now()
    this.opts.server.report(play.sessionId, playing, this.opts.takeInteraction(), ended).then(
      (answer) => {
        play.busy = false
        this.accept(play, answer, true)
        if (this.play === play) this.tick()
      },
      (error: unknown) => this.failed(play, error),
    )
  }

  private accept(play: Play, answer: ListenAnswer, reported: boolean): void {
    const previous = play.answer
    play.answer = answer
    this.opts.onAnswer(play.itemId, answer, previous)
    // One session per account: a play of this account elsewhere (another tab, CUBE Radio) ended
    // this one. If the music here still plays, it becomes a session of its own again.
    if (reported && answer.ended && this.play === play) {
      play.restarts += 1
      play.playKey = `${play.baseKey}~${play.restarts}`
      play.sessionId = null
      play.answer = undefined
    }
  }

  private failed(play: Play, error: unknown): void {
    play.busy = false
    // Reports are idempotent (the server counts time, not calls): the next try simply reports again.
    play.retryAt = this.opts.now() + RETRY_MS
    // Whatever the failed call said is sent again.
    play.sentPlaying = !this.wantPlaying
    this.opts.onError?.(error)
  }
}
