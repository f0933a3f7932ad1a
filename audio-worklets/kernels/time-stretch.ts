/**
 * WSOLA time-stretch: changes a signal's length without changing its pitch.
 *
 * Output frames of `frameMs` (Hann, 50 % overlap, so the windows sum to one) are taken from the
 * input near where the time map says, each shifted within ±`searchMs` to the offset whose
 * waveform best continues the previous frame (normalised cross-correlation), so periodic
 * material keeps its phase (no beating) and transients keep their place on the grid.
 * `stretch` is output length / input length (0.8 = faster and shorter, 1.25 = slower and longer).
 */
export interface StretchOptions {
  frameMs?: number
  searchMs?: number
}

/** The coarse search's lag step and read step, in samples. */
const COARSE_LAG = 3
const COARSE_STEP = 8

export function timeStretch(input: Float32Array, stretch: number, sampleRate: number, options: StretchOptions = {}): Float32Array {
  if (!(stretch > 0)) throw new RangeError('stretch must be positive')
  const outLength = Math.round(input.length * stretch)
  const out = new Float32Array(outLength)
  if (input.length === 0) return out
  const n = Math.max(64, 2 * Math.round(((options.frameMs ?? 20) * sampleRate) / 2000))
  const hop = n / 2
  const search = Math.round(((options.searchMs ?? 4) * sampleRate) / 1000)
  const window = new Float32Array(n)
  for (let i = 0; i < n; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n)
  const at = (i: number) => (i >= 0 && i < input.length ? input[i]! : 0)
  // Normalised cross-correlation of the overlapping half (what the new frame's rising window
  // meets) between where the previous frame would continue and a candidate, on every step-th sample.
  const score = (natural: number, cand: number, step: number): number => {
    let xy = 0
    let yy = 1e-12
    if (natural >= 0 && cand >= 0 && natural + hop <= input.length && cand + hop <= input.length) {
      for (let i = 0; i < hop; i += step) {
        const y = input[cand + i]!
        xy += input[natural + i]! * y
        yy += y * y
      }
    } else {
      for (let i = 0; i < hop; i += step) {
        const y = at(cand + i)
        xy += at(natural + i) * y
        yy += y * y
      }
    }
    return xy / Math.sqrt(yy)
  }
  // Where the previous frame would naturally continue in the input.
  let natural = 0
  for (let start = -hop; start < outLength; start += hop) {
    const target = Math.round((start + hop) / stretch) - hop
    let best = target
    if (start > -hop) {
      // Coarse then fine: every COARSE_LAG-th offset on a sparse read finds the peak's
      // neighbourhood (a tenth of the work), then every offset around it on the usual read.
      let bestScore = -Infinity
      for (let d = -search; d <= search; d += COARSE_LAG) {
        const s = score(natural, target + d, COARSE_STEP)
        if (s > bestScore) {
          bestScore = s
          best = target + d
        }
      }
      const centre = best
      bestScore = -Infinity
      for (let c = Math.max(target - search, centre - COARSE_LAG); c <= Math.min(target + search, centre + COARSE_LAG); c++) {
        const s = score(natural, c, 2)
        if (s > bestScore) {
          bestScore = s
          best = c
        }
      }
    }
    for (let i = 0; i < n; i++) {
      const o = start + i
      if (o >= 0 && o < outLength) out[o]! += window[i]! * at(best + i)
    }
    natural = best + hop
  }
  return out
}

/** Linear-phase-free resampling by `ratio` (output length = input length / ratio), cubic Hermite. */
export function resample(input: Float32Array, ratio: number, outLength = Math.round(input.length / ratio)): Float32Array {
  const out = new Float32Array(outLength)
  const last = input.length - 1
  const at = (i: number) => input[i < 0 ? 0 : i > last ? last : i]!
  for (let j = 0; j < outLength; j++) {
    const x = j * ratio
    const i = Math.floor(x)
    const f = x - i
    const y0 = at(i - 1), y1 = at(i), y2 = at(i + 1), y3 = at(i + 2)
    const c1 = 0.5 * (y2 - y0)
    const c2 = y0 - 2.5 * y1 + 2 * y2 - 0.5 * y3
    const c3 = 0.5 * (y3 - y0) + 1.5 * (y1 - y2)
    out[j] = ((c3 * f + c2) * f + c1) * f + y1
  }
  return out
}

/** Pitch shift by `semitones`, same length: stretch by the ratio, then resample back. */
export function pitchShift(input: Float32Array, semitones: number, sampleRate: number): Float32Array {
  const ratio = 2 ** (semitones / 12)
  if (ratio === 1) return input.slice()
  const stretched = timeStretch(input, ratio, sampleRate)
  return resample(stretched, ratio, input.length)
}
