/**
 * The mixer's metronome while it plays: clicks on the beats of the timeline, scheduled ahead on
 * the context clock into the master bus (metronome.ts has the beats and the click).
 */
import { getAudioContext } from './audio-context.ts'
import { getMasterBus } from './master-bus.ts'
import { beatsBetween, clickAt } from './metronome.ts'

/** Clicks are scheduled this far ahead, every TICK_MS. */
const AHEAD_SECONDS = 0.2
const TICK_MS = 50

export interface MetronomeTimeline {
  isPlaying(): boolean
  /** Timeline seconds at a context time (null when not playing). */
  timelinePositionAt(contextTime: number): number | null
  /** The context time a loop wrap is due (the timeline jumps back there), or null. */
  pendingWrapAt(): number | null
}

export class MetronomeClicks {
  private timer: ReturnType<typeof setInterval> | null = null
  /** Context time up to which clicks are already scheduled. */
  private until = 0
  private bpm = 120

  constructor(private readonly timeline: MetronomeTimeline) {}

  /** Clicks while `on` at `bpm`; off stops them. */
  run(on: boolean, bpm: number) {
    this.bpm = bpm
    if (!on) {
      if (this.timer) clearInterval(this.timer)
      this.timer = null
      return
    }
    if (this.timer) return
    this.until = getAudioContext().currentTime
    this.tick()
    this.timer = setInterval(() => this.tick(), TICK_MS)
  }

  private tick() {
    const ctx = getAudioContext()
    if (!this.timeline.isPlaying()) return
    const from = Math.max(this.until, ctx.currentTime)
    const to = ctx.currentTime + AHEAD_SECONDS
    // Split the window where a loop wrap is due: the timeline jumps back there.
    const w = this.timeline.pendingWrapAt()
    const cuts = w !== null && w > from && w < to ? [from, w, to] : [from, to]
    for (let i = 0; i + 1 < cuts.length; i++) {
      const a = cuts[i]!
      const b = cuts[i + 1]!
      const pa = this.timeline.timelinePositionAt(a)
      if (pa === null) continue
      for (const beat of beatsBetween(pa, pa + (b - a), this.bpm))
        clickAt(ctx, getMasterBus().input as never, a + (beat.time - pa), beat.accent)
    }
    this.until = to
  }
}
