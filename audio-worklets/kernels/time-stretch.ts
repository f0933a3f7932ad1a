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
  // Where the previous frame would naturally continue in the input.
  let natural = 0
  for (let start = -hop; start < outLength; start += hop) {
    const target = Math.round((start + hop) / stretch) - hop
    let best = target
    if (start > -hop) {
      let bestScore = -Infinity
      for (let d = -search; d <= search; d++) {
        const cand = target + d
        let xy = 0
        let yy = 1e-12
        // Correlate the overlapping half (what the new frame's rising window meets).
        for (let i = 0; i < hop; i += 2) {
          const x = at(natural + i)
          const y = at(cand + i)
          xy += x * y
          yy += y * y
        }
        const score = xy / Math.sqrt(yy)
        if (score > bestScore) {
          bestScore = score
          best = cand
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
