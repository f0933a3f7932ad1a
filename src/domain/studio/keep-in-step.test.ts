import { afterEach, describe, expect, it, vi } from 'vitest'
import { CHECK_EVERY_MS, DRIFT_LIMIT_SECONDS, keepInStep, RESTART_AHEAD_SECONDS, type KeepInStepIo } from './keep-in-step.ts'

// A fake studio: the page's clock (ms), an audio clock that runs with it except while it is held
// back (a glitch), and a transport that plays from a start position at a context time.
function studio() {
  let perf = 10_000
  let held = 0
  let run: { seconds: number; ctx: number } | null = { seconds: 4, ctx: 5 }
  const restarts: { seconds: number; ctx: number }[] = []
  const ctxAt = (p: number) => (p - 10_000) / 1000 + 5 - held
  const io: KeepInStepIo = {
    perfNow: () => perf,
    contextTimeAt: ctxAt,
    isPlaying: () => run !== null,
    positionAt: (ctx) => (run ? run.seconds + (ctx - run.ctx) : null),
    restart: (seconds, ctx) => {
      restarts.push({ seconds, ctx })
      run = { seconds, ctx }
    },
  }
  return {
    io,
    restarts,
    advance: (ms: number) => (perf += ms),
    glitch: (seconds: number) => (held += seconds),
    pause: () => (run = null),
    /** Where the audio is heard at the page's time now (by the audio clock). */
    heard: () => (run ? run.seconds + (ctxAt(perf) - run.ctx) : null),
  }
}

afterEach(() => vi.useRealTimers())

describe('keepInStep', () => {
  it('leaves a transport alone while the clocks agree within the limit', () => {
    const s = studio()
    const keeper = keepInStep(s.io, { perfMs: 10_000, ctxTime: 5 })
    s.advance(3_000)
    s.glitch(DRIFT_LIMIT_SECONDS / 2)
    expect(keeper.check()).toBeCloseTo(DRIFT_LIMIT_SECONDS / 2, 9)
    expect(s.restarts).toEqual([])
    keeper.stop()
  })

  it('after a glitch held the audio back, starts again where the page’s clock says it should be', () => {
    const s = studio()
    const keeper = keepInStep(s.io, { perfMs: 10_000, ctxTime: 5 })
    s.advance(2_000)
    s.glitch(0.05)
    // Heard 50 ms behind where 2 s of page time put it.
    expect(s.heard()).toBeCloseTo(4 + 2 - 0.05, 9)
    expect(keeper.check()).toBeCloseTo(0.05, 9)
    expect(s.restarts).toHaveLength(1)
    s.advance(RESTART_AHEAD_SECONDS * 1000 + 900)
    // In step again: 2.1 + 0.9 s after the start, and no more restarts while the clocks now agree.
    expect(s.heard()).toBeCloseTo(4 + 3, 9)
    expect(keeper.check()).toBeCloseTo(0, 9)
    expect(s.restarts).toHaveLength(1)
    keeper.stop()
  })

  it('runs every second by itself and stops once the transport is paused', () => {
    vi.useFakeTimers()
    const s = studio()
    const keeper = keepInStep(s.io, { perfMs: 10_000, ctxTime: 5 })
    s.advance(1_000)
    s.glitch(0.1)
    vi.advanceTimersByTime(CHECK_EVERY_MS)
    expect(s.restarts).toHaveLength(1)
    s.pause()
    vi.advanceTimersByTime(CHECK_EVERY_MS)
    expect(keeper.check()).toBeNull()
    s.glitch(0.1)
    vi.advanceTimersByTime(5 * CHECK_EVERY_MS)
    expect(s.restarts).toHaveLength(1)
  })
})
