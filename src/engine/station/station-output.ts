/**
 * CUBE Radio's level: each piece is brought to the player's own loudness target, and a limiter on
 * the station's output holds the rare peak under -1 dBTP. A piece is rendered in segments
 * (segments.ts), so no early segment knows the whole piece's peak or loudness: a piece rendered whole
 * ahead of its slot is measured whole; a piece joined mid-way is measured on its first segment, the
 * part the listener hears first, and keeps that gain to its end.
 */
import { integratedLoudness } from '../../../dsp/loudness.ts'

/** The player's Normal setting (loudness-normalisation.ts), so the radio and songs sit together. */
export const STATION_LOUDNESS_LUFS = -14
/** A piece is never raised or lowered by more than this (a near-silent segment is no measure). */
const MAX_GAIN_DB = 12

/** A limiter from a DynamicsCompressorNode: hard knee, 20:1, fast. */
export const LIMITER = { threshold: -3, knee: 0, ratio: 20, attack: 0.002, release: 0.15 } as const
/**
 * The Web Audio compressor adds make-up gain of its own: (1 / gain at full scale)^0.6, in dB 0.6 ×
 * (threshold - threshold / ratio) below 0 dB (the spec's "makeup gain"), so pieces aim that much lower.
 */
export const LIMITER_MAKEUP_DB = 0.6 * -(LIMITER.threshold - LIMITER.threshold / LIMITER.ratio)

/** The gain (dB) that brings audio measuring `channels` to the station's loudness through its limiter. */
export function stationGainDb(channels: readonly Float32Array[], sampleRate: number): number {
  const loudness = integratedLoudness(channels, sampleRate)
  if (!Number.isFinite(loudness)) return 0
  const gain = STATION_LOUDNESS_LUFS - LIMITER_MAKEUP_DB - loudness
  return Math.max(-MAX_GAIN_DB, Math.min(MAX_GAIN_DB, gain))
}

interface Param {
  value: number
}
interface Compressor {
  threshold: Param
  knee: Param
  ratio: Param
  attack: Param
  release: Param
}

export function makeLimiter<C extends Compressor>(compressor: C): C {
  compressor.threshold.value = LIMITER.threshold
  compressor.knee.value = LIMITER.knee
  compressor.ratio.value = LIMITER.ratio
  compressor.attack.value = LIMITER.attack
  compressor.release.value = LIMITER.release
  return compressor
}
