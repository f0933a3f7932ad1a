/**
 * Onset envelopes for tempo analysis, in one pass of a 512-point FFT (hop 64) over the signal
 * box-filtered down to ~11 kHz: log-magnitude spectral flux, half-wave rectified, for the whole
 * spectrum and for three bands (low < 150 Hz: kick and bass; 150–1500 Hz: snare bodies, chords,
 * melody; above: snare noise and hats), plus a harmonic-change curve: positive chroma flux
 * over ~45 ms of the spectral peaks (noise — snares, hats — has no peaks well above its mean, and
 * would move the chroma without any harmony moving). Each is returned with its slow level (a 1 s moving mean) removed and clipped at 0,
 * so only the attacks remain.
 */
export interface OnsetBands {
  full: Float64Array
  low: Float64Array
  mid: Float64Array
  high: Float64Array
  chroma: Float64Array
  /** Envelope frames per second. */
  frameRate: number
  /** Seconds added to a frame's time to land on the attack it reports (one analysis window; the
   *  kicks test in workers/remix-analysis.test.ts holds the grid within ±10 ms of the attacks). */
  latency: number
}

const FFT_SIZE = 512
const HOP = 64
const BINS = FFT_SIZE / 2
const LOW_HZ = 150
const MID_HZ = 1500
const CHROMA_HZ = [200, 2000] as const
/** Frames between the chroma vectors compared for harmonic change. */
const CHROMA_LAG = 7

// Twiddles and the bit-reversal permutation, computed once: the FFT runs for every hop of a
// whole track, so trigonometry in its inner loop would dominate the analysis time.
const TW_RE = new Float64Array(BINS)
const TW_IM = new Float64Array(BINS)
const REV = new Uint16Array(FFT_SIZE)
const WINDOW = new Float64Array(FFT_SIZE)
for (let k = 0; k < BINS; k++) {
  TW_RE[k] = Math.cos((-2 * Math.PI * k) / FFT_SIZE)
  TW_IM[k] = Math.sin((-2 * Math.PI * k) / FFT_SIZE)
}
for (let i = 0; i < FFT_SIZE; i++) {
  let r = 0
  for (let b = FFT_SIZE >> 1, k = i; b > 0; b >>= 1, k >>= 1) r |= (k & 1) * b
  REV[i] = r
  WINDOW[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE)
}

function fftMagnitudes(frame: Float64Array, re: Float64Array, im: Float64Array, out: Float64Array): void {
  const n = frame.length
  for (let i = 0; i < n; i++) {
    re[REV[i]!] = frame[i]!
    im[REV[i]!] = 0
  }
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1
    const stride = n / size
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = TW_RE[k * stride]!,
          wi = TW_IM[k * stride]!
        const a = start + k,
          b = a + half
        const tr = wr * re[b]! - wi * im[b]!
        const ti = wr * im[b]! + wi * re[b]!
        re[b] = re[a]! - tr
        im[b] = im[a]! - ti
        re[a] = re[a]! + tr
        im[a] = im[a]! + ti
      }
    }
  }
  for (let k = 0; k < out.length; k++) out[k] = Math.hypot(re[k]!, im[k]!)
}

/** `e` minus its moving mean over ±w frames, clipped at 0. */
function attacks(e: Float64Array, w: number): Float64Array {
  const m = e.length
  const out = new Float64Array(m)
  const prefix = new Float64Array(m + 1)
  for (let i = 0; i < m; i++) prefix[i + 1] = prefix[i]! + e[i]!
  for (let i = 0; i < m; i++) {
    const a = Math.max(0, i - w),
      b = Math.min(m, i + w + 1)
    const v = e[i]! - (prefix[b]! - prefix[a]!) / (b - a)
    out[i] = v > 0 ? v : 0
  }
  return out
}

export function onsetBands(signal: Float32Array, sampleRate: number): OnsetBands {
  const factor = Math.max(1, Math.floor(sampleRate / 11025))
  const rate = sampleRate / factor
  const n = Math.floor(signal.length / factor)
  const x = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    let s = 0
    for (let k = 0; k < factor; k++) s += signal[i * factor + k]!
    x[i] = s / factor
  }
  const frames = Math.max(0, Math.floor((n - FFT_SIZE) / HOP) + 1)
  const full = new Float64Array(frames),
    low = new Float64Array(frames),
    mid = new Float64Array(frames),
    high = new Float64Array(frames)
  const chroma = new Float64Array(frames)
  const lowBin = Math.round((LOW_HZ * FFT_SIZE) / rate)
  const midBin = Math.round((MID_HZ * FFT_SIZE) / rate)
  const pitchClass = new Int8Array(BINS).fill(-1)
  const chromaLo = Math.max(1, Math.round((CHROMA_HZ[0] * FFT_SIZE) / rate))
  const chromaHi = Math.min(BINS - 1, Math.round((CHROMA_HZ[1] * FFT_SIZE) / rate))
  for (let k = chromaLo; k < chromaHi; k++) {
    pitchClass[k] = (((Math.round(12 * Math.log2((k * rate) / FFT_SIZE / 440)) + 9) % 12) + 12) % 12
  }
  const history = Array.from({ length: CHROMA_LAG + 1 }, () => new Float64Array(12))
  const frame = new Float64Array(FFT_SIZE),
    re = new Float64Array(FFT_SIZE),
    im = new Float64Array(FFT_SIZE)
  let prev = new Float64Array(BINS),
    mag = new Float64Array(BINS)
  for (let f = 0; f < frames; f++) {
    const off = f * HOP
    for (let i = 0; i < FFT_SIZE; i++) frame[i] = x[off + i]! * WINDOW[i]!
    fftMagnitudes(frame, re, im, mag)
    const c = history[f % history.length]!
    c.fill(0)
    // Chroma from spectral peaks well above the band's mean only: partials, not noise or the
    // leakage of a kick's sweep.
    let bandMean = 0
    for (let k = chromaLo; k < chromaHi; k++) bandMean += mag[k]!
    bandMean /= chromaHi - chromaLo
    for (let k = chromaLo; k < chromaHi; k++) {
      const v = mag[k]!
      if (v > 4 * bandMean && v > mag[k - 1]! && v >= mag[k + 1]!) c[pitchClass[k]!] = c[pitchClass[k]!]! + v
    }
    let a = 0,
      l = 0,
      md = 0,
      h = 0
    for (let k = 1; k < BINS; k++) {
      const v = Math.log1p(1000 * mag[k]!)
      mag[k] = v
      const d = v - prev[k]!
      if (d > 0 && f > 0) {
        a += d
        if (k < lowBin) l += d
        else if (k < midBin) md += d
        else h += d
      }
    }
    full[f] = a
    low[f] = l
    mid[f] = md
    high[f] = h
    let norm = 0
    for (let q = 0; q < 12; q++) norm += c[q]! * c[q]!
    norm = Math.sqrt(norm) || 1
    for (let q = 0; q < 12; q++) c[q] = c[q]! / norm
    if (f >= CHROMA_LAG) {
      const o = history[(f - CHROMA_LAG) % history.length]!
      let d = 0
      for (let q = 0; q < 12; q++) d += Math.max(0, c[q]! - o[q]!)
      chroma[f] = d
    }
    const t = prev
    prev = mag
    mag = t
  }
  const frameRate = rate / HOP
  const w = Math.round(frameRate / 2)
  return {
    full: attacks(full, w),
    low: attacks(low, w),
    mid: attacks(mid, w),
    high: attacks(high, w),
    // Harmony moves per beat or bar: its slow level is taken over 4 s, not 1 s.
    chroma: attacks(chroma, 4 * w),
    frameRate,
    latency: FFT_SIZE / (frameRate * HOP),
  }
}
