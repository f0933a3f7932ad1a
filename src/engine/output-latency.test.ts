import { afterEach, describe, expect, it } from 'vitest'
import { deviceOutputLatency, outputLatencySeconds, reportedOutputLatency, setUnreportedOutputLatency } from './output-latency.ts'

// The readings of a context, as the wrapper and the native context it hides give them. The real
// Chromium readings are checked in tests/browser/output-latency.test.ts.

const context = (base: unknown, output: unknown) =>
  ({ baseLatency: base, _nativeAudioContext: { outputLatency: output } }) as unknown as Parameters<typeof outputLatencySeconds>[0]

afterEach(() => setUnreportedOutputLatency(0))

describe('output latency', () => {
  it('an absurd or missing reading counts as none', () => {
    expect(outputLatencySeconds(context(0.01, Number.NaN))).toBeCloseTo(0.01, 9)
    expect(outputLatencySeconds(context(-1, 30))).toBe(0)
    expect(outputLatencySeconds(context(0.005, 0.2))).toBeCloseTo(0.205, 9)
  })

  it('where the browser reports none (Safari), the delay set by hand stands in; a reported one wins', () => {
    const safari = context(0.005, undefined)
    expect(deviceOutputLatency(safari)).toBe(0)
    setUnreportedOutputLatency(0.2)
    expect(reportedOutputLatency(safari)).toBe(0)
    expect(deviceOutputLatency(safari)).toBeCloseTo(0.2, 9)
    expect(outputLatencySeconds(safari)).toBeCloseTo(0.205, 9)
    // Chromium measures the device itself: the hand-set delay would count it twice.
    expect(outputLatencySeconds(context(0.005, 0.03))).toBeCloseTo(0.035, 9)
    // A value past any device's counts as none rather than shifting every start by seconds.
    setUnreportedOutputLatency(5)
    expect(deviceOutputLatency(safari)).toBe(0)
  })
})
