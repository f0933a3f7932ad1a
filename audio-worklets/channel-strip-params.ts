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
 * Descriptor defaults are NEUTRAL (unity volume, centre, every effect off, enabled): a bare node
 * is bit-transparent. Mixer defaults (volume 70, reverb 20) are applied by src/engine/channel-strip.ts.
 * k-rate: each kernel glides internally, so per-sample automation would only cost time.
 */
export const STRIP_PARAM_DESCRIPTORS: readonly StripParamDescriptor[] = STRIP_PARAM_NAMES.map((name) => ({
  name,
  defaultValue: name === 'volume' ? 100 : name === 'enabled' ? 1 : 0,
  minValue: name === 'pan' ? -50 : 0,
  maxValue: name === 'pan' ? 50 : name === 'enabled' ? 1 : 100,
  automationRate: 'k-rate' as const,
}))

/** Meter message the processor posts on its port (~30 per second). */
export interface StripLevelsMessage {
  type: 'levels'
  peakL: number
  peakR: number
  rmsL: number
  rmsR: number
}

/** Messages the node may send to the processor. */
export type StripControlMessage = { type: 'dispose' }

export const METER_RATE_HZ = 30
