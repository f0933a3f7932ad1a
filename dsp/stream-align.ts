/**
 * Where a short capture of something playing sits in the decoded file it plays, to the frame.
 *
 * The player knows two starts only roughly: a song streamed through a media element (its clock is
 * good to tens of ms) and a buffer started "now" (the audio thread may reach it a render quantum or
 * more late). It captures a moment of the item's output and finds it in the decoded buffer, so it
 * knows the exact frame playing (src/engine/locate-playback.ts, src/engine/player-deck.ts).
 *
 * locateCapture(capture, reference, expected, radius) → { frame, score } | null
 *   frame: the index in `reference` of capture[0]; searched within expected ± radius.
 *   null when the match is not trustworthy: the capture is near silent, nothing matches closely, or
 *   another lag matches nearly as well (a held tone, a loop shorter than the window), where a wrong
 *   frame would look right.
 *
 * Two stages keep it cheap on the main thread: the whole range on a 4x decimated copy (box-averaged,
 * so music's energy below ~6 kHz at 48 kHz decides), then every frame around the best coarse peaks
 * at full rate (see below).
 */

export interface CaptureLocation {
  frame: number
  /** Normalised correlation at `frame`, 1 = identical. */
  score: number
}

const DECIMATE = 4
/** Below this RMS the capture is silence or a fade: nothing to match. */
const MIN_RMS = 1e-3
/** Identical audio correlates ~1; the same file through another decoder or resampler still above this. */
const MIN_SCORE = 0.99
/**
 * Another peak must leave this many times what the winner leaves, plus the floor, or the match is
 * ambiguous (every period of a held tone leaves ~0; a wrong lag in music leaves 1e-2 or more).
 */
const AMBIGUOUS_RATIO = 4
const AMBIGUOUS_FLOOR = 1e-4
/** Coarse peaks this close to the best are placed and compared at full rate, at most MAX_PEAKS of them. */
const COARSE_SPREAD = 0.2
const MAX_PEAKS = 48

function decimate(x: Float32Array, from: number, length: number): Float64Array {
  const out = new Float64Array(Math.floor(length / DECIMATE))
  for (let i = 0; i < out.length; i++) {
    let s = 0
    for (let j = 0; j < DECIMATE; j++) s += x[from + i * DECIMATE + j] ?? 0
    out[i] = s / DECIMATE
  }
  return out
}

function difference(x: Float32Array, from: number, length: number): Float64Array {
  const out = new Float64Array(length)
  for (let i = 0; i < length; i++) out[i] = (x[from + i + 1] ?? 0) - (x[from + i] ?? 0)
  return out
}

/** Normalised correlation of a (mean-free enough for audio) against b starting at `at`. */
function correlation(a: ArrayLike<number>, b: ArrayLike<number>, at: number): number {
  let ab = 0,
    aa = 0,
    bb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!,
      y = b[at + i] ?? 0
    ab += x * y
    aa += x * x
    bb += y * y
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0
}

export function locateCapture(capture: Float32Array, reference: Float32Array, expected: number, radius: number): CaptureLocation | null {
  const n = capture.length
  if (n < DECIMATE * 64) return null
  let energy = 0
  for (let i = 0; i < n; i++) energy += capture[i]! ** 2
  if (Math.sqrt(energy / n) < MIN_RMS) return null

  const lo = Math.max(0, Math.round(expected - radius))
  const hi = Math.min(reference.length - n, Math.round(expected + radius))
  if (hi < lo) return null

  // Coarse: every 4th frame of the range, on the decimated signals.
  const c = decimate(capture, 0, n)
  const r = decimate(reference, lo, hi - lo + n)
  const lags = Math.floor((hi - lo) / DECIMATE) + 1
  const coarse = new Float64Array(lags)
  let best = 0
  for (let k = 0; k < lags; k++) {
    coarse[k] = correlation(c, r, k)
    if (coarse[k]! > coarse[best]!) best = k
  }
  // The coarse landscape is ruled by the bass, whose every period scores nearly as well. Each peak
  // close to the best is placed to the frame on the first difference (which weighs the highs, where
  // a wrong lag decorrelates at once), then the peaks are compared by what is left of the capture
  // once the reference is taken out (1 − r²): ~0 where the same audio lines up, and a wrong peak
  // leaves clearly more, unless the audio repeats (a held tone) and every peak leaves as little.
  const peaks: number[] = []
  for (let k = 0; k < lags; k++) {
    const v = coarse[k]!
    const peak = (k === 0 || v >= coarse[k - 1]!) && (k === lags - 1 || v >= coarse[k + 1]!)
    if (peak && v >= coarse[best]! - COARSE_SPREAD) peaks.push(k)
  }
  peaks.sort((a, b) => coarse[b]! - coarse[a]!)
  const dc = difference(capture, 0, n)
  const dr = difference(reference, lo, hi - lo + n)
  const placed: CaptureLocation[] = []
  for (const k of peaks.slice(0, MAX_PEAKS)) {
    const centre = lo + k * DECIMATE
    let frame = centre,
      sharp = -Infinity
    for (let f = Math.max(lo, centre - 2 * DECIMATE); f <= Math.min(hi, centre + 2 * DECIMATE); f++) {
      const v = correlation(dc, dr, f - lo)
      if (v > sharp) {
        sharp = v
        frame = f
      }
    }
    placed.push({ frame, score: correlation(capture, reference, frame) })
  }
  // What is left of the capture once the reference is taken out.
  const left = (p: CaptureLocation) => 1 - p.score * p.score
  placed.sort((a, b) => left(a) - left(b))
  const winner = placed[0]
  if (!winner || winner.score < MIN_SCORE) return null
  const runnerUp = placed.find((p) => Math.abs(p.frame - winner.frame) > DECIMATE)
  if (runnerUp && left(runnerUp) < AMBIGUOUS_RATIO * left(winner) + AMBIGUOUS_FLOOR) return null
  return winner
}
