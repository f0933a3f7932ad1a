/**
 * After a shared start, a studio's audio can fall out of step with the page's clock, and so with
 * the other studios: a glitch of the audio thread (a busy machine, a tab in the background) holds
 * the context's clock back while the page's runs on. Every CHECK_EVERY_MS the time that passed on
 * each clock since the start is compared; once they differ by more than DRIFT_LIMIT_SECONDS the
 * transport starts again a moment later where it should be by then. The comparison is of clocks,
 * not of timeline positions, so a loop's wrap or a seek does not read as drift.
 */

/** A shared start as this studio scheduled it: the page time and the context time it maps to. */
export interface StartAnchor {
  perfMs: number
  ctxTime: number
}

export const DRIFT_LIMIT_SECONDS = 0.02
export const CHECK_EVERY_MS = 1_000
/** How far ahead a restart is scheduled (time to start every source). */
export const RESTART_AHEAD_SECONDS = 0.1

export interface KeepInStepIo {
  /** The page's clock (performance.now). */
  perfNow(): number
  /** The context time at a page time (src/engine/context-clock.ts). */
  contextTimeAt(perfMs: number): number
  isPlaying(): boolean
  /** Timeline seconds at a context time (null when not playing). */
  positionAt(ctxTime: number): number | null
  restart(seconds: number, ctxTime: number): void
}

/** How far the audio has fallen behind the page's clock since the anchor (s; negative: ran ahead). */
export const driftSince = (anchor: StartAnchor, perfMs: number, ctxTime: number): number =>
  (perfMs - anchor.perfMs) / 1000 - (ctxTime - anchor.ctxTime)

export interface Keeper {
  /** One check now: the drift found (null when not started yet or stopped). */
  check(): number | null
  stop(): void
}

/** Keeps the transport in step with the page's clock from `anchor` on, until paused or stopped. */
export function keepInStep(io: KeepInStepIo, anchor: StartAnchor): Keeper {
  let from = anchor
  let timer: ReturnType<typeof setInterval> | null = setInterval(() => check(), CHECK_EVERY_MS)
  const stop = () => {
    if (timer) clearInterval(timer)
    timer = null
  }
  const check = (): number | null => {
    if (!timer) return null
    const perf = io.perfNow()
    if (perf < from.perfMs) return null
    // Paused (here or by a cue): nothing to keep in step any more.
    if (!io.isPlaying()) return (void stop(), null)
    const drift = driftSince(from, perf, io.contextTimeAt(perf))
    if (Math.abs(drift) <= DRIFT_LIMIT_SECONDS) return drift
    const perfAt = perf + RESTART_AHEAD_SECONDS * 1000
    const ctxAt = io.contextTimeAt(perfAt)
    const seconds = io.positionAt(ctxAt)
    if (seconds === null) return drift
    io.restart(Math.max(0, seconds + drift), ctxAt)
    from = { perfMs: perfAt, ctxTime: ctxAt }
    return drift
  }
  return { check, stop }
}
