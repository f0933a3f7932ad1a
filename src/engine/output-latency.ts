/**
 * How long after its context time a sample is heard: the context's own buffering (baseLatency)
 * plus the system's and the device's (outputLatency: about 10-40 ms on built-in speakers, 150-250
 * ms over Bluetooth). Starts that must be heard at one instant on several devices (play together,
 * CUBE Radio) and the position a player heard (recording notes, trimming a take) take it off.
 *
 * standardized-audio-context's wrapper gives baseLatency but not outputLatency; the native context
 * it wraps has it (Chromium, Firefox). Safari reports none: there the delay the listener set by hand
 * (Settings → Playback, e.g. 200 ms for Bluetooth headphones) stands in for it, as a DAW's manual
 * latency offset does.
 */
import type { IAudioContext } from 'standardized-audio-context'

/** Beyond this a reported latency is taken for a wrong reading, not a device. */
const MAX_SECONDS = 2

const seconds = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 && x < MAX_SECONDS ? x : 0)

interface WithNative {
  outputLatency?: number
  _nativeAudioContext?: { outputLatency?: number }
}

let unreportedSeconds = 0

/** The delay to assume where the browser reports none (0: none assumed). */
export function setUnreportedOutputLatency(delaySeconds: number): void {
  unreportedSeconds = seconds(delaySeconds)
}

/** What the browser reports of the device's output latency, in seconds (0 where it reports none). */
export function reportedOutputLatency(ctx: IAudioContext): number {
  const wrapped = ctx as unknown as WithNative
  return seconds(wrapped._nativeAudioContext?.outputLatency ?? wrapped.outputLatency)
}

/** The device's output latency in seconds: as reported, else the delay set by hand. */
export function deviceOutputLatency(ctx: IAudioContext): number {
  return reportedOutputLatency(ctx) || unreportedSeconds
}

/** Seconds from a sample's context time to its being heard. */
export const outputLatencySeconds = (ctx: IAudioContext): number => seconds(ctx.baseLatency) + deviceOutputLatency(ctx)
