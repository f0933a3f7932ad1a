/**
 * Where the page's clock (performance.now, ms) meets the audio context's (seconds): the context
 * time whose sample comes out of the speakers at a given page instant. Two studios that schedule
 * a start at the context time of one shared instant are heard starting together, whatever their
 * output latency, because the browser's output timestamp (getOutputTimestamp) already pairs the
 * sample being played with the page time it is played at.
 *
 * Where the browser gives no timestamp yet (the context has not played a sample, or a browser
 * without the call), the scheduling clock (currentTime, now) stands in for it.
 */
import type { IAudioContext } from 'standardized-audio-context'

/** A timestamp older than this is from before a suspension: not to be trusted. */
const STALE_MS = 1_000

interface OutputTimestamp {
  contextTime?: number
  performanceTime?: number
}

/** The context time heard at page time `performanceMs` (performance.now's clock). */
export function contextTimeAt(ctx: IAudioContext, performanceMs: number): number {
  const nowMs = performance.now()
  const raw = ctx as unknown as { getOutputTimestamp?: () => OutputTimestamp }
  const ts = typeof raw.getOutputTimestamp === 'function' ? raw.getOutputTimestamp() : null
  if (ts && ts.performanceTime && ts.contextTime && nowMs - ts.performanceTime < STALE_MS && ts.performanceTime <= nowMs + 1)
    return ts.contextTime + (performanceMs - ts.performanceTime) / 1000
  return ctx.currentTime + (performanceMs - nowMs) / 1000
}
