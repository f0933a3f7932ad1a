/**
 * What CUBE Radio has asked to render, piece by piece, and the one queue that renders it. A piece
 * about to play is rendered in growing segments from the listener's position (segments.ts); the
 * next one is rendered whole while the current one plays. When a piece prepared whole goes on air
 * before its render is done (a skip, or a machine too slow to finish it within a slot), the whole
 * render is abandoned and the piece is planned again in segments from the position: waiting for
 * all 66 seconds of it before anything sounds is what a listener would hear as a dead station.
 * No audio context here: the player schedules what is rendered (station-player.ts).
 */
import type { Score } from '../composer.ts'
import type { ProgrammeSlot } from './programme.ts'
import { PIECE_SECONDS } from './programme.ts'
import { coversToEnd, segmentPlan, type Segment } from './segments.ts'

export type RenderedSegment<B> = Segment & { buffer: B }

/** One piece: its score, the plan of segments asked for (one chain), those rendered, and its level. */
export interface PieceRender<B> {
  score: Promise<Score>
  planned: Segment[]
  rendered: RenderedSegment<B>[]
  /** Set by the first segment rendered and kept: one level for the whole piece (station-output.ts). */
  gain: number | null
  /** The plan is one render of the whole piece, made ahead of its turn. */
  whole: boolean
  /** Aborts the render of a plan that another plan replaced. */
  abort: AbortController
}

export interface PieceRenderDeps<B> {
  compose(slot: ProgrammeSlot): Promise<Score>
  /** `signal` is given for a whole-piece render only: the segments are short enough to finish. */
  render(score: Score, segment: Segment, signal: AbortSignal | undefined): Promise<B>
  /** The level of a piece from its first rendered segment. */
  level(buffer: B): number
  /** Keys of the pieces still wanted (on air and next), and which one is on air. */
  wanted(): { onAir: string | null; keys: Set<string> }
  rendered(slot: ProgrammeSlot, piece: PieceRender<B>): void
  failed(error: unknown): void
}

export const keyOf = (slot: ProgrammeSlot): string => `${slot.recipe.description}|${slot.recipe.mood}|${slot.recipe.genre}`

/** A piece's plan cut back to what is rendered (the rest is planned again when it is wanted). */
const renderedOnly = <B>(piece: PieceRender<B>): Segment[] => piece.rendered.map(({ buffer: _, ...segment }) => segment)

interface Job<B> {
  key: string
  piece: PieceRender<B>
  whole: boolean
  run: () => Promise<void>
}

/** Drops a piece's plan for `kept` (what stays of it) and stops the render of the old one. */
function abandon<B>(piece: PieceRender<B>, kept: Segment[]) {
  piece.abort.abort()
  piece.abort = new AbortController()
  piece.planned = kept
  piece.rendered = piece.rendered.filter((r) => kept.some((k) => k.from === r.from && k.to === r.to))
}

/** Kept: the previous piece (still fading out), the current and next ones, and one spare. */
const KEPT_PIECES = 4

export class PieceRenders<B> {
  readonly pieces = new Map<string, PieceRender<B>>()
  /** Renders waiting their turn, one at a time; the piece on air goes first (pump()). */
  private jobs: Job<B>[] = []
  /** The render running now, if any. */
  private running: Job<B> | null = null

  constructor(private readonly deps: PieceRenderDeps<B>) {}

  /** The piece of `slot`, its score being written by the composer if it was not yet. */
  pieceOf(slot: ProgrammeSlot): PieceRender<B> {
    const key = keyOf(slot)
    let piece = this.pieces.get(key)
    if (!piece) {
      const score = this.deps.compose(slot)
      score.catch(() => this.pieces.get(key)?.score === score && this.pieces.delete(key))
      piece = { score, planned: [], rendered: [], gain: null, whole: false, abort: new AbortController() }
      this.pieces.set(key, piece)
      while (this.pieces.size > KEPT_PIECES) this.pieces.delete(this.pieces.keys().next().value!)
    }
    return piece
  }

  /**
   * Makes sure the piece of `slot` is rendered, or being rendered, from `from` seconds to its end:
   * whole when it is prepared `ahead`, in growing segments when it is on air.
   */
  prepare(slot: ProgrammeSlot, from: number, ahead: boolean): PieceRender<B> {
    const piece = this.pieceOf(slot)
    const wholeStillRendering = !ahead && piece.whole && piece.rendered.length === 0
    if (!wholeStillRendering && coversToEnd(piece.planned, from)) return piece
    // Another plan replaces the old one (a listener back on a piece from earlier in it): one chain.
    abandon(piece, [])
    piece.planned = segmentPlan(from, PIECE_SECONDS, ahead ? PIECE_SECONDS : undefined)
    piece.whole = ahead && piece.planned.length === 1
    for (const segment of piece.planned) this.jobs.push(this.job(slot, piece, segment))
    // The piece on air does not wait behind another piece's whole render: that one is asked again later.
    const busy = this.running
    if (!ahead && busy?.whole && busy.piece !== piece) abandon(busy.piece, renderedOnly(busy.piece))
    void this.pump()
    return piece
  }

  private job(slot: ProgrammeSlot, owner: PieceRender<B>, segment: Segment): Job<B> {
    const key = keyOf(slot)
    const plan = owner.planned
    const whole = owner.whole
    const signal = whole ? owner.abort.signal : undefined
    const run = async () => {
      if (owner.planned !== plan || this.pieces.get(key) !== owner) return
      try {
        const buffer = await this.deps.render(await owner.score, segment, signal)
        if (owner.planned !== plan) return
        owner.gain ??= this.deps.level(buffer)
        owner.rendered.push({ ...segment, buffer })
        this.deps.rendered(slot, owner)
      } catch (e) {
        // A render another plan replaced was abandoned on purpose: nothing went wrong.
        if (owner.planned !== plan) return
        owner.planned = renderedOnly(owner)
        this.deps.failed(e)
      }
    }
    return { key, piece: owner, whole, run }
  }

  /**
   * Runs the waiting renders one at a time: first those of the piece on air (a restart must not wait
   * behind the next piece's whole render), then the rest in order; a piece no longer wanted (a skip,
   * a steer, a stop) drops its renders, and what it has rendered stays.
   */
  private async pump() {
    if (this.running) return
    try {
      for (;;) {
        const { onAir, keys } = this.deps.wanted()
        for (const job of this.jobs.filter((j) => !keys.has(j.key))) {
          const piece = this.pieces.get(job.key)
          if (piece) piece.planned = renderedOnly(piece)
        }
        this.jobs = this.jobs.filter((j) => keys.has(j.key))
        const index = Math.max(
          0,
          this.jobs.findIndex((j) => j.key === onAir),
        )
        const [job] = this.jobs.splice(index, 1)
        if (!job) return
        this.running = job
        await job.run()
        this.running = null
      }
    } finally {
      this.running = null
    }
  }
}
