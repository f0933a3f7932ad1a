/**
 * The output latency the app takes off shared starts (play together, CUBE Radio) is the device's:
 * read through the audio-context wrapper, which does not give it itself, from the native context.
 */
import { describe, expect, it } from 'vitest'
import { AudioContext as WrappedContext } from 'standardized-audio-context'
import { contextTimeAt, contextTimeHeardAt } from '../../src/engine/context-clock.ts'
import { deviceOutputLatency, outputLatencySeconds } from '../../src/engine/output-latency.ts'

describe('output latency', () => {
  it("is the native context's baseLatency + outputLatency, through the wrapper", async () => {
    const native = new window.AudioContext({ latencyHint: 'interactive' })
    const ctx = new WrappedContext({ latencyHint: 'interactive' })
    await Promise.all([native.resume(), ctx.resume()])
    await new Promise((resolve) => setTimeout(resolve, 200))
    // Headless Chromium reports about 30 ms on its fake device; the wrapper itself says nothing.
    expect(native.outputLatency).toBeGreaterThan(0)
    expect((ctx as unknown as { outputLatency?: number }).outputLatency).toBeUndefined()
    // Suspended, the context's clock and latency readings hold still (running, the render thread
    // updates both between two reads: a loaded run once saw the latency move by 11 ms).
    await ctx.suspend()
    const hidden = (ctx as unknown as { _nativeAudioContext: AudioContext })._nativeAudioContext
    expect(deviceOutputLatency(ctx)).toBeGreaterThan(0)
    expect(deviceOutputLatency(ctx)).toBe(hidden.outputLatency)
    expect(outputLatencySeconds(ctx)).toBeCloseTo(ctx.baseLatency + hidden.outputLatency, 9)
    // A start heard at an instant is placed that much earlier on the context's clock.
    const at = performance.now() + 500
    expect(contextTimeAt(ctx, at) - contextTimeHeardAt(ctx, at)).toBeCloseTo(outputLatencySeconds(ctx), 6)
    await Promise.all([native.close(), ctx.close()])
  })
})
