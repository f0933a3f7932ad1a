// The remix's source analysis (Beat Match, Harmonize, Auto Tune read it): tempo and beat grid,
// key, and a coarse pitch track, from a mono mixdown. Pure; remix.worker.ts runs it.
import { detectTempo } from '../dsp/tempo-detect.ts'
import { detectKey } from '../dsp/key-detect.ts'
import { createYin } from '../dsp/yin.ts'

export interface RemixAnalysis {
  bpm: number
  firstBeat: number
  beats: number[]
  key: { tonic: number; mode: 'major' | 'minor'; name: string }
  /** Hz per pitch frame (0 = unpitched), `pitchHop` seconds apart. */
  pitch: Float32Array
  pitchHop: number
  /** Share of pitch frames that are voiced: Auto Tune has little to do below ~0.2. */
  voiced: number
}

export const MIN_SECONDS = 5
export const MAX_SECONDS = 15 * 60

/** Clear reasons the page shows; nothing is burned for any of them. */
export class RemixInputError extends Error {}

export function checkSource(length: number, sampleRate: number, peak: number): void {
  const seconds = length / sampleRate
  if (seconds < MIN_SECONDS)
    throw new RemixInputError(`This track is too short to remix (${seconds.toFixed(1)} s; at least ${MIN_SECONDS} s)`)
  if (seconds > MAX_SECONDS)
    throw new RemixInputError(`This track is too long to remix (${Math.round(seconds / 60)} min; at most ${MAX_SECONDS / 60} min)`)
  if (peak < 1e-4) throw new RemixInputError('This track is silent: there is nothing to remix')
}

/** Averages channels into one, box-filtered down by an integer factor to at most ~11 kHz. */
export function remixMixdown(channels: Float32Array[], sampleRate: number): { x: Float32Array; rate: number; peak: number } {
  const factor = Math.max(1, Math.floor(sampleRate / 11025))
  const n = Math.floor(channels[0]!.length / factor)
  const x = new Float32Array(n)
  let peak = 0
  for (const ch of channels) {
    for (let i = 0; i < n; i++) {
      let s = 0
      for (let k = 0; k < factor; k++) s += ch[i * factor + k]!
      x[i]! += s / factor / channels.length
    }
  }
  for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(x[i]!))
  return { x, rate: sampleRate / factor, peak }
}

export function analyseRemixSource(channels: Float32Array[], sampleRate: number): RemixAnalysis {
  const { x, rate, peak } = remixMixdown(channels, sampleRate)
  checkSource(channels[0]!.length, sampleRate, peak)
  const tempo = detectTempo(x, rate)
  const key = detectKey(x, rate)
  const yin = createYin(rate, Math.round(rate * 0.025))
  const hop = Math.round(rate * 0.05)
  const frames = Math.max(0, Math.floor((x.length - yin.frameLength) / hop))
  const pitch = new Float32Array(frames)
  let voiced = 0
  for (let f = 0; f < frames; f++) {
    pitch[f] = yin.detect(x.subarray(f * hop, f * hop + yin.frameLength)).hz
    if (pitch[f]! > 0) voiced++
  }
  return {
    bpm: tempo.bpm,
    firstBeat: tempo.firstBeat,
    beats: tempo.beats,
    key: { tonic: key.tonic, mode: key.mode, name: key.name },
    pitch,
    pitchHop: hop / rate,
    voiced: frames ? voiced / frames : 0,
  }
}
