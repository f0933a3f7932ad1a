import { afterEach, describe, expect, it, vi } from 'vitest'
import { measureClockOffset, PROBES, REMEASURE_MS, trackClockOffset } from './clock-offset.ts'

// A fake world: one true time, a local clock that is `skew` ms behind the server's, and a network
// whose legs take the given times per probe. The server reads its clock on arrival.
function world(skew: number, legs: readonly (readonly [up: number, down: number])[]) {
  let trueTime = 1_800_000_000_000
  let probe = 0
  const local = () => trueTime - skew
  const serverTime = async () => {
    const [up, down] = legs[probe++ % legs.length]!
    trueTime += up
    const s = trueTime
    trueTime += down
    return s
  }
  return { local, serverTime, probes: () => probe }
}

afterEach(() => vi.useRealTimers())

describe('measureClockOffset', () => {
  it('recovers a known skew exactly over symmetric legs', async () => {
    const w = world(7_000, [[20, 20]])
    const e = await measureClockOffset(w.serverTime, w.local)
    expect(e.offsetMs).toBe(7_000)
    expect(e.roundTripMs).toBe(40)
    expect(e.accuracyMs).toBe(20)
    expect(w.probes()).toBe(PROBES)
  })

  it('keeps the probe with the shortest round trip; its error stays within half that trip', async () => {
    // Asymmetric legs: the error of a probe is (up - down) / 2. The third is the shortest.
    const legs = [
      [300, 10],
      [15, 200],
      [6, 2],
      [90, 90],
      [50, 5],
    ] as const
    const w = world(-2_500, legs)
    const e = await measureClockOffset(w.serverTime, w.local)
    expect(e.roundTripMs).toBe(8)
    expect(e.offsetMs).toBe(-2_500 + (6 - 2) / 2)
    expect(Math.abs(e.offsetMs - -2_500)).toBeLessThanOrEqual(e.accuracyMs)
    // The first probe alone would have been 145 ms off: choosing matters.
    const first = world(-2_500, [legs[0]])
    expect((await measureClockOffset(first.serverTime, first.local, 1)).offsetMs).toBe(-2_500 + 145)
  })

  it('skips probes that fail or answer no time; says why when none worked', async () => {
    let n = 0
    const flaky = async () => {
      n++
      if (n % 2 === 1) throw new Error('offline')
      return n === 2 ? Number.NaN : 1_000_000
    }
    const e = await measureClockOffset(flaky, () => 0)
    expect(e.offsetMs).toBe(1_000_000)
    await expect(
      measureClockOffset(async () => {
        throw new Error('the server is down')
      }),
    ).rejects.toThrow("Could not measure the clock against the server's: the server is down")
  })
})

describe('trackClockOffset', () => {
  it('measures at once and again every minute, keeping the last estimate when a round fails', async () => {
    vi.useFakeTimers()
    let skew = 100
    let down = false
    const serverTime = async () => {
      if (down) throw new Error('offline')
      return Date.now() + skew
    }
    const seen: number[] = []
    const errors: unknown[] = []
    const tracker = trackClockOffset({
      serverTime,
      now: () => Date.now(),
      onEstimate: (e) => seen.push(e.offsetMs),
      onError: (e) => errors.push(e),
    })
    expect(tracker.estimate()).toBeNull()
    expect((await tracker.ready).offsetMs).toBe(100)
    skew = 250
    await vi.advanceTimersByTimeAsync(REMEASURE_MS)
    expect(tracker.estimate()?.offsetMs).toBe(250)
    down = true
    await vi.advanceTimersByTimeAsync(REMEASURE_MS)
    expect(errors).toHaveLength(1)
    expect(tracker.estimate()?.offsetMs).toBe(250)
    tracker.stop()
    down = false
    skew = 999
    await vi.advanceTimersByTimeAsync(3 * REMEASURE_MS)
    expect(seen).toEqual([100, 250])
  })
})
