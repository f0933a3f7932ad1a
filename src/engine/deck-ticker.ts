/**
 * The deck's clock watch while it plays: every TIME_EVENT_MS a time event, a look at what the clock
 * has passed (deck-handover.ts), the streamed item's handover re-estimated, its switch to the decoded
 * copy and the clock check tried; and a timer for the next instant something is due (a handover or
 * the end), sooner than the tick.
 */
import { catchUp, scheduleNext } from './deck-handover.ts'
import { maybeSwitchToDecoded } from './deck-switch.ts'
import { maybeCheckClock } from './deck-clock-check.ts'
import { TIME_EVENT_MS, type DeckCore } from './deck-core.ts'

export class DeckTicker {
  private ticker: ReturnType<typeof setInterval> | null = null
  private wake: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly core: () => DeckCore,
    private readonly emitTime: () => void,
  ) {}

  start() {
    this.ticker ??= setInterval(() => this.tick(), TIME_EVENT_MS)
    this.arm()
  }

  stop() {
    if (this.ticker) clearInterval(this.ticker)
    if (this.wake) clearTimeout(this.wake)
    this.ticker = null
    this.wake = null
  }

  private tick() {
    const core = this.core()
    catchUp(core)
    if (!core.playing) return
    this.emitTime()
    // A streamed item's end is re-estimated while there is time to move the handover.
    const inc = core.incoming
    const ctx = core.graph.ctxIfAny
    if (core.current && !core.current.buffer && inc && ctx && inc.at - ctx.currentTime > 0.3) scheduleNext(core)
    maybeSwitchToDecoded(core)
    maybeCheckClock(core)
    if (!this.wake) this.arm()
  }

  /** A timer for the next instant something happens (handover or end). */
  arm() {
    if (this.wake) clearTimeout(this.wake)
    this.wake = null
    const core = this.core()
    const ctx = core.graph.ctxIfAny
    const cur = core.current
    if (!core.playing || !ctx || !cur) return
    const due = core.incoming ? core.incoming.at : cur.buffer ? cur.startAt + cur.buffer.duration : Infinity
    const ms = Math.max(0, (due - ctx.currentTime) * 1000) + 5
    if (ms > TIME_EVENT_MS * 4) return
    this.wake = setTimeout(() => {
      this.wake = null
      catchUp(this.core())
      this.arm()
    }, ms)
  }
}
