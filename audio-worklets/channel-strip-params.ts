/**
 * The channel strip's controls: one AudioParam each on the AudioWorkletNode, in the same units the
 * mixer shows (0–100, pan −50..50, enabled 0/1). Shared by the processor and by src/engine (src may
 * import from audio-worklets; never the reverse).
 */

export const CHANNEL_STRIP_PROCESSOR = 'cube-channel-strip'

export const STRIP_PARAM_NAMES = [
  'volume',
  'pan',
  'reverb',
  'lowpass',
  'highpass',
  'distortion',
  'delay',
  'compression',
  'chorus',
  'enabled',
] as const

export type StripParamName = (typeof STRIP_PARAM_NAMES)[number]

export interface StripParamDescriptor {
  name: StripParamName
  defaultValue: number
  minValue: number
  maxValue: number
  automationRate: 'k-rate'
}

/**
 * THE source of every control's range and neutral value: the processor declares these to the
 * browser, and src/engine derives the mixer's ranges (CONTROL_RANGES), the transparent strip
 * (STRIP_NEUTRAL) and the neutral parts of a new track's defaults (TRACK_DEFAULTS, STRIP_DEFAULTS)
 * from them (src/engine/strip-params.test.ts checks that they agree).
 *
 * Descriptor defaults are NEUTRAL (unity volume, centre, every effect off, enabled): a bare node
 * is bit-transparent. The mixer's own starting levels for a new track (volume 70, reverb 20) are
 * written once, in src/engine/mixer-model.ts.
 * k-rate: each kernel glides internally, so per-sample automation would only cost time.
 */
export const STRIP_PARAM_DESCRIPTORS: readonly StripParamDescriptor[] = STRIP_PARAM_NAMES.map((name) => ({
  name,
  defaultValue: name === 'volume' ? 100 : name === 'enabled' ? 1 : 0,
  minValue: name === 'pan' ? -50 : 0,
  maxValue: name === 'pan' ? 50 : name === 'enabled' ? 1 : 100,
  automationRate: 'k-rate' as const,
}))

/** The descriptors by parameter name. */
export const STRIP_PARAM_BY_NAME: Readonly<Record<StripParamName, StripParamDescriptor>> = Object.fromEntries(
  STRIP_PARAM_DESCRIPTORS.map((d) => [d.name, d]),
) as Record<StripParamName, StripParamDescriptor>

/** Meter message the processor posts on its port (~30 per second). */
export interface StripLevelsMessage {
  type: 'levels'
  peakL: number
  peakR: number
  rmsL: number
  rmsR: number
}

/**
 * What the node hands the processor: strip.wasm compiled on the main thread (an
 * AudioWorkletGlobalScope cannot fetch; a WebAssembly.Module passes through structured clone).
 */
export interface ChannelStripProcessorOptions {
  stripModule: WebAssembly.Module
}

/** Messages the node may send to the processor. */
export type StripControlMessage = { type: 'dispose' }

export const METER_RATE_HZ = 30
