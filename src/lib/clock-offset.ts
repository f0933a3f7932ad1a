/**
 * How far this page's clock is from the server's, measured as NTP does: a probe notes the local
 * time it asks (t0) and hears back (t1); the server's answer s was read somewhere in between, so
 * the offset is s minus the midpoint (t0 + t1) / 2, wrong by at most half the round trip (all of
 * the trip on one leg). Of PROBES probes the one with the shortest round trip is kept: its bound
 * is the tightest, and a probe delayed by a busy network or tab shows itself by its long trip.
 *
 * The estimate is taken again every REMEASURE_MS while it is in use (clocks drift, and a laptop
 * that slept may have been set since), and kept when a new round fails.
 */

export interface ClockEstimate {
  /** Server time minus local time, ms: server now = local now + offsetMs. */
  offsetMs: number
  /** The kept probe's round trip, ms. */
  roundTripMs: number
  /** The most the offset can be wrong by: half that round trip, ms. */
  accuracyMs: number
}

/** The server's time, ms since 1970 (src/backend/server-clock.ts in the app; a fake in tests). */
export type ServerTime = () => Promise<number>

export const PROBES = 5
export const REMEASURE_MS = 60_000

/** This page's clock in ms since 1970: monotonic within the page (performance.now), unlike Date.now. */
export const localNow = (): number => performance.timeOrigin + performance.now()

/** One round of probes, one after the other; the one with the shortest round trip decides. */
export async function measureClockOffset(serverTime: ServerTime, now: () => number = localNow, probes = PROBES): Promise<ClockEstimate> {
  let best: ClockEstimate | null = null
  let failure: unknown = null
  for (let i = 0; i < probes; i++) {
    const t0 = now()
    let s: number
    try {
      s = await serverTime()
    } catch (e) {
      failure = e
      continue
    }
    const t1 = now()
    const roundTripMs = t1 - t0
    if (!Number.isFinite(s) || roundTripMs < 0) continue
    if (!best || roundTripMs < best.roundTripMs) best = { offsetMs: s - (t0 + t1) / 2, roundTripMs, accuracyMs: roundTripMs / 2 }
  }
  if (best) return best
  const why = failure instanceof Error ? failure.message : failure === null ? 'no answer was a time' : String(failure)
  throw new Error(`Could not measure the clock against the server's: ${why}`)
}

export interface ClockOffsetTracker {
  /** The latest estimate (null until the first round is in). */
  estimate(): ClockEstimate | null
  /** The first round's end (rejects when it failed; later rounds retry on their own). */
  ready: Promise<ClockEstimate>
  stop(): void
}

export interface TrackerOptions {
  serverTime: ServerTime
  now?: () => number
  everyMs?: number
  onEstimate?: (estimate: ClockEstimate) => void
  /** A round failed (the last estimate, if any, stays). */
  onError?: (error: unknown) => void
}

/** Measures now and every `everyMs` until stopped. */
export function trackClockOffset(options: TrackerOptions): ClockOffsetTracker {
  const now = options.now ?? localNow
  let current: ClockEstimate | null = null
  let stopped = false
  let running: Promise<ClockEstimate> | null = null
  const round = (): Promise<ClockEstimate> => {
    // One round at a time: a slow network must not stack rounds up.
    running ??= measureClockOffset(options.serverTime, now)
      .then((estimate) => {
        if (!stopped) {
          current = estimate
          options.onEstimate?.(estimate)
        }
        return estimate
      })
      .catch((e: unknown) => {
        if (!stopped) options.onError?.(e)
        throw e
      })
      .finally(() => (running = null))
    return running
  }
  const ready = round()
  ready.catch(() => {})
  const timer = setInterval(() => void round().catch(() => {}), options.everyMs ?? REMEASURE_MS)
  return {
    estimate: () => current,
    ready,
    stop() {
      stopped = true
      clearInterval(timer)
    },
  }
}
