/**
 * How long after its context time a sample is heard: the context's own buffering (baseLatency)
 * plus the system's and the device's (outputLatency: about 10-40 ms on built-in speakers, 150-250
 * ms over Bluetooth). Starts that must be heard at one instant on several devices (play together,
 * CUBE Radio) and the position a player heard (recording notes, trimming a take) take it off.
 *
 * standardized-audio-context's wrapper gives baseLatency but not outputLatency; the native context
 * it wraps has it (Chromium, Firefox; Safari reports none, and then only baseLatency counts).
 */
import type { IAudioContext } from 'standardized-audio-context'

/** Beyond this a reported latency is taken for a wrong reading, not a device. */
const MAX_SECONDS = 2

const seconds = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 && x < MAX_SECONDS ? x : 0)

interface WithNative {
  outputLatency?: number
  _nativeAudioContext?: { outputLatency?: number }
}

/** The device's output latency in seconds (0 where the browser reports none). */
export function deviceOutputLatency(ctx: IAudioContext): number {
  const wrapped = ctx as unknown as WithNative
  return seconds(wrapped._nativeAudioContext?.outputLatency ?? wrapped.outputLatency)
}

/** Seconds from a sample's context time to its being heard. */
export const outputLatencySeconds = (ctx: IAudioContext): number => seconds(ctx.baseLatency) + deviceOutputLatency(ctx)
