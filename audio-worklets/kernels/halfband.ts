/**
 * 2x oversampling pair built on one linear-phase halfband FIR (Kaiser-windowed sinc), in polyphase
 * form: every other tap of a halfband filter is zero, so each direction costs ODD_TAPS
 * multiply-adds per base-rate sample. Used by the distortion kernel to keep the shaper's
 * harmonics from folding back below Nyquist.
 */

/** Odd-indexed taps per phase (2P). 16 gives ~60 dB image rejection outside 18–30 kHz at 48 kHz. */
export const ODD_TAPS = 16
const P = ODD_TAPS / 2
const KAISER_BETA = 6

function besselI0(x: number): number {
  let sum = 1
  let term = 1
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) * (x / (2 * k))
    sum += term
    if (term < 1e-12 * sum) break
  }
  return sum
}

/**
 * The odd taps h[2(j-P)+1], j = 0..2P-1, of a halfband lowpass whose centre tap is 0.5,
 * normalised so the filter's DC gain is exactly 1.
 */
export function halfbandOddTaps(): Float64Array {
  const taps = new Float64Array(ODD_TAPS)
  const half = 2 * P - 1 // k runs -half..half
  const denom = besselI0(KAISER_BETA)
  let sum = 0
  for (let j = 0; j < ODD_TAPS; j++) {
    const k = 2 * (j - P) + 1
    const sinc = Math.sin((Math.PI * k) / 2) / ((Math.PI * k) / 2)
    const r = k / (half + 1)
    const w = besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - r * r))) / denom
    taps[j] = 0.5 * sinc * w
    sum += taps[j]!
  }
  for (let j = 0; j < ODD_TAPS; j++) taps[j] = (taps[j]! * 0.5) / sum
  return taps
}

/** Frames handled per pass of the block loops (longer calls are split). */
export const HALFBAND_CHUNK = 128
const CHUNK = HALFBAND_CHUNK
/** Samples of history each FIR needs ahead of the current one. */
const HIST = ODD_TAPS - 1

/**
 * One channel of the oversampling pair. Each history is a linear buffer: HIST samples carried
 * over from the previous block, then the current block, so the FIR loops never wrap and each
 * sample is written once; the last HIST samples move to the front after every pass.
 */
export class HalfbandChannel {
  readonly taps: Float64Array
  private readonly up = new Float64Array(HIST + CHUNK)
  private readonly downOdd = new Float64Array(HIST + CHUNK)
  private readonly downEven = new Float64Array(HIST + CHUNK)
  /** Outputs of the last upsample() call: the even and odd 2x-rate samples. */
  even = 0
  odd = 0

  // The odd taps are symmetric (t[j] = t[15-j]): eight coefficients, unrolled below.
  private readonly t0: number
  private readonly t1: number
  private readonly t2: number
  private readonly t3: number
  private readonly t4: number
  private readonly t5: number
  private readonly t6: number
  private readonly t7: number

  constructor(taps: Float64Array) {
    if (taps.length !== ODD_TAPS) throw new Error(`halfband: expected ${ODD_TAPS} taps`)
    this.taps = taps
    this.t0 = taps[0]!
    this.t1 = taps[1]!
    this.t2 = taps[2]!
    this.t3 = taps[3]!
    this.t4 = taps[4]!
    this.t5 = taps[5]!
    this.t6 = taps[6]!
    this.t7 = taps[7]!
  }

  /** h[p + HIST - j] is x[n - j]. */
  private fir(h: Float64Array, p: number): number {
    return (
      this.t0 * (h[p]! + h[p + 15]!) +
      this.t1 * (h[p + 1]! + h[p + 14]!) +
      this.t2 * (h[p + 2]! + h[p + 13]!) +
      this.t3 * (h[p + 3]! + h[p + 12]!) +
      this.t4 * (h[p + 4]! + h[p + 11]!) +
      this.t5 * (h[p + 5]! + h[p + 10]!) +
      this.t6 * (h[p + 6]! + h[p + 9]!) +
      this.t7 * (h[p + 7]! + h[p + 8]!)
    )
  }

  /** Feeds one base-rate sample; sets `even`/`odd` (delayed by P base-rate samples). */
  upsample(x: number): void {
    const h = this.up
    h[HIST] = x
    this.even = h[HIST - P]!
    this.odd = 2 * this.fir(h, 0)
    h.copyWithin(0, 1, HIST + 1)
  }

  /** Consumes one pair of 2x-rate samples and returns one base-rate sample (delayed P-1). */
  downsample(even: number, odd: number): number {
    const w = this.downOdd
    const e = this.downEven
    w[HIST] = odd
    e[HIST] = even
    const y = this.fir(w, 0) + 0.5 * e[HIST - P + 1]!
    w.copyWithin(0, 1, HIST + 1)
    e.copyWithin(0, 1, HIST + 1)
    return y
  }

  /**
   * The hot path of the distortion kernel at a steady drive: upsample, shape both phases with the
   * strip's soft clip (see softClip in distortion.ts), downsample, for a whole block. Same
   * arithmetic as upsample()/downsample() per sample.
   */
  shapeBlock(input: Float32Array, output: Float32Array, frames: number, drive: number, gain: number): void {
    for (let start = 0; start < frames; start += CHUNK) {
      this.shapeChunk(input, start, output, start, Math.min(CHUNK, frames - start), drive, gain)
    }
  }

  /**
   * shapeBlock with a per-sample drive and output gain (while the drive glides): reads
   * input[offset + i], writes output[i], drives[i], gains[i] for i < frames ≤ HALFBAND_CHUNK.
   */
  shapeBlockVarying(
    input: Float32Array,
    offset: number,
    output: Float32Array,
    frames: number,
    drives: Float64Array,
    gains: Float64Array,
  ): void {
    this.shapeChunkVarying(input, offset, output, 0, Math.min(CHUNK, frames), drives, gains)
  }

  private shapeChunk(
    input: Float32Array,
    inStart: number,
    output: Float32Array,
    outStart: number,
    n: number,
    drive: number,
    gain: number,
  ): void {
    const h = this.up
    const w = this.downOdd
    const e = this.downEven
    const t0 = this.t0,
      t1 = this.t1,
      t2 = this.t2,
      t3 = this.t3,
      t4 = this.t4,
      t5 = this.t5,
      t6 = this.t6,
      t7 = this.t7
    for (let i = 0; i < n; i++) h[HIST + i] = input[inStart + i]!
    // Four outputs per iteration share their 19 history loads (instead of 4 × 16), and are shaped
    // right away (the soft clip as in the remainder loop below).
    const n4 = n - (n % 4)
    for (let i = 0; i < n4; i += 4) {
      const x0 = h[i + 0]!,
        x1 = h[i + 1]!,
        x2 = h[i + 2]!,
        x3 = h[i + 3]!,
        x4 = h[i + 4]!,
        x5 = h[i + 5]!,
        x6 = h[i + 6]!,
        x7 = h[i + 7]!,
        x8 = h[i + 8]!,
        x9 = h[i + 9]!,
        x10 = h[i + 10]!,
        x11 = h[i + 11]!,
        x12 = h[i + 12]!,
        x13 = h[i + 13]!,
        x14 = h[i + 14]!,
        x15 = h[i + 15]!,
        x16 = h[i + 16]!,
        x17 = h[i + 17]!,
        x18 = h[i + 18]!
      const o0 =
        2 *
        (t0 * (x0 + x15) +
          t1 * (x1 + x14) +
          t2 * (x2 + x13) +
          t3 * (x3 + x12) +
          t4 * (x4 + x11) +
          t5 * (x5 + x10) +
          t6 * (x6 + x9) +
          t7 * (x7 + x8))
      const o1 =
        2 *
        (t0 * (x1 + x16) +
          t1 * (x2 + x15) +
          t2 * (x3 + x14) +
          t3 * (x4 + x13) +
          t4 * (x5 + x12) +
          t5 * (x6 + x11) +
          t6 * (x7 + x10) +
          t7 * (x8 + x9))
      const o2 =
        2 *
        (t0 * (x2 + x17) +
          t1 * (x3 + x16) +
          t2 * (x4 + x15) +
          t3 * (x5 + x14) +
          t4 * (x6 + x13) +
          t5 * (x7 + x12) +
          t6 * (x8 + x11) +
          t7 * (x9 + x10))
      const o3 =
        2 *
        (t0 * (x3 + x18) +
          t1 * (x4 + x17) +
          t2 * (x5 + x16) +
          t3 * (x6 + x15) +
          t4 * (x7 + x14) +
          t5 * (x8 + x13) +
          t6 * (x9 + x12) +
          t7 * (x10 + x11))
      const ae0 = drive * x7,
        ao0 = drive * o0
      const ce0 = 0.5 * (Math.abs(ae0 + 3) - Math.abs(ae0 - 3)),
        co0 = 0.5 * (Math.abs(ao0 + 3) - Math.abs(ao0 - 3))
      const ce20 = ce0 * ce0,
        co20 = co0 * co0
      w[HIST + i + 0] = (co0 * (27 + co20)) / (27 + 9 * co20)
      e[HIST + i + 0] = (ce0 * (27 + ce20)) / (27 + 9 * ce20)
      const ae1 = drive * x8,
        ao1 = drive * o1
      const ce1 = 0.5 * (Math.abs(ae1 + 3) - Math.abs(ae1 - 3)),
        co1 = 0.5 * (Math.abs(ao1 + 3) - Math.abs(ao1 - 3))
      const ce21 = ce1 * ce1,
        co21 = co1 * co1
      w[HIST + i + 1] = (co1 * (27 + co21)) / (27 + 9 * co21)
      e[HIST + i + 1] = (ce1 * (27 + ce21)) / (27 + 9 * ce21)
      const ae2 = drive * x9,
        ao2 = drive * o2
      const ce2 = 0.5 * (Math.abs(ae2 + 3) - Math.abs(ae2 - 3)),
        co2 = 0.5 * (Math.abs(ao2 + 3) - Math.abs(ao2 - 3))
      const ce22 = ce2 * ce2,
        co22 = co2 * co2
      w[HIST + i + 2] = (co2 * (27 + co22)) / (27 + 9 * co22)
      e[HIST + i + 2] = (ce2 * (27 + ce22)) / (27 + 9 * ce22)
      const ae3 = drive * x10,
        ao3 = drive * o3
      const ce3 = 0.5 * (Math.abs(ae3 + 3) - Math.abs(ae3 - 3)),
        co3 = 0.5 * (Math.abs(ao3 + 3) - Math.abs(ao3 - 3))
      const ce23 = ce3 * ce3,
        co23 = co3 * co3
      w[HIST + i + 3] = (co3 * (27 + co23)) / (27 + 9 * co23)
      e[HIST + i + 3] = (ce3 * (27 + ce23)) / (27 + 9 * ce23)
    }
    for (let i = n4; i < n; i++) {
      w[HIST + i] =
        2 *
        (t0 * (h[i]! + h[i + 15]!) +
          t1 * (h[i + 1]! + h[i + 14]!) +
          t2 * (h[i + 2]! + h[i + 13]!) +
          t3 * (h[i + 3]! + h[i + 12]!) +
          t4 * (h[i + 4]! + h[i + 11]!) +
          t5 * (h[i + 5]! + h[i + 10]!) +
          t6 * (h[i + 6]! + h[i + 9]!) +
          t7 * (h[i + 7]! + h[i + 8]!))
    }
    for (let i = n4; i < n; i++) {
      // The soft clip inlined, its ±3 clamp done branch-free (|a+3| - |a-3| = 2·clamp(a, -3, 3)):
      // noise driven past the knee makes a compare-and-branch clip mispredict constantly.
      const ae = drive * h[i + HIST - P]!
      const ao = drive * w[HIST + i]!
      const ce = 0.5 * (Math.abs(ae + 3) - Math.abs(ae - 3))
      const co = 0.5 * (Math.abs(ao + 3) - Math.abs(ao - 3))
      const ce2 = ce * ce
      const co2 = co * co
      w[HIST + i] = (co * (27 + co2)) / (27 + 9 * co2)
      e[HIST + i] = (ce * (27 + ce2)) / (27 + 9 * ce2)
    }
    for (let i = 0; i < n4; i += 4) {
      const x0 = w[i + 0]!,
        x1 = w[i + 1]!,
        x2 = w[i + 2]!,
        x3 = w[i + 3]!,
        x4 = w[i + 4]!,
        x5 = w[i + 5]!,
        x6 = w[i + 6]!,
        x7 = w[i + 7]!,
        x8 = w[i + 8]!,
        x9 = w[i + 9]!,
        x10 = w[i + 10]!,
        x11 = w[i + 11]!,
        x12 = w[i + 12]!,
        x13 = w[i + 13]!,
        x14 = w[i + 14]!,
        x15 = w[i + 15]!,
        x16 = w[i + 16]!,
        x17 = w[i + 17]!,
        x18 = w[i + 18]!
      output[outStart + i + 0] =
        gain *
        (t0 * (x0 + x15) +
          t1 * (x1 + x14) +
          t2 * (x2 + x13) +
          t3 * (x3 + x12) +
          t4 * (x4 + x11) +
          t5 * (x5 + x10) +
          t6 * (x6 + x9) +
          t7 * (x7 + x8) +
          0.5 * e[i + 0 + HIST - P + 1]!)
      output[outStart + i + 1] =
        gain *
        (t0 * (x1 + x16) +
          t1 * (x2 + x15) +
          t2 * (x3 + x14) +
          t3 * (x4 + x13) +
          t4 * (x5 + x12) +
          t5 * (x6 + x11) +
          t6 * (x7 + x10) +
          t7 * (x8 + x9) +
          0.5 * e[i + 1 + HIST - P + 1]!)
      output[outStart + i + 2] =
        gain *
        (t0 * (x2 + x17) +
          t1 * (x3 + x16) +
          t2 * (x4 + x15) +
          t3 * (x5 + x14) +
          t4 * (x6 + x13) +
          t5 * (x7 + x12) +
          t6 * (x8 + x11) +
          t7 * (x9 + x10) +
          0.5 * e[i + 2 + HIST - P + 1]!)
      output[outStart + i + 3] =
        gain *
        (t0 * (x3 + x18) +
          t1 * (x4 + x17) +
          t2 * (x5 + x16) +
          t3 * (x6 + x15) +
          t4 * (x7 + x14) +
          t5 * (x8 + x13) +
          t6 * (x9 + x12) +
          t7 * (x10 + x11) +
          0.5 * e[i + 3 + HIST - P + 1]!)
    }
    for (let i = n4; i < n; i++) {
      const y =
        t0 * (w[i]! + w[i + 15]!) +
        t1 * (w[i + 1]! + w[i + 14]!) +
        t2 * (w[i + 2]! + w[i + 13]!) +
        t3 * (w[i + 3]! + w[i + 12]!) +
        t4 * (w[i + 4]! + w[i + 11]!) +
        t5 * (w[i + 5]! + w[i + 10]!) +
        t6 * (w[i + 6]! + w[i + 9]!) +
        t7 * (w[i + 7]! + w[i + 8]!) +
        0.5 * e[i + HIST - P + 1]!
      output[outStart + i] = gain * y
    }
    h.copyWithin(0, n, n + HIST)
    w.copyWithin(0, n, n + HIST)
    e.copyWithin(0, n, n + HIST)
  }

  // A copy of shapeChunk rather than one function with optional arrays: V8 compiles the shared
  // version several times slower.
  private shapeChunkVarying(
    input: Float32Array,
    inStart: number,
    output: Float32Array,
    outStart: number,
    n: number,
    drives: Float64Array,
    gains: Float64Array,
  ): void {
    const h = this.up
    const w = this.downOdd
    const e = this.downEven
    const t0 = this.t0,
      t1 = this.t1,
      t2 = this.t2,
      t3 = this.t3,
      t4 = this.t4,
      t5 = this.t5,
      t6 = this.t6,
      t7 = this.t7
    for (let i = 0; i < n; i++) h[HIST + i] = input[inStart + i]!
    for (let i = 0; i < n; i++) {
      const odd =
        2 *
        (t0 * (h[i]! + h[i + 15]!) +
          t1 * (h[i + 1]! + h[i + 14]!) +
          t2 * (h[i + 2]! + h[i + 13]!) +
          t3 * (h[i + 3]! + h[i + 12]!) +
          t4 * (h[i + 4]! + h[i + 11]!) +
          t5 * (h[i + 5]! + h[i + 10]!) +
          t6 * (h[i + 6]! + h[i + 9]!) +
          t7 * (h[i + 7]! + h[i + 8]!))
      const g = drives[i]!
      const ae = g * h[i + HIST - P]!
      const ao = g * odd
      const ce = 0.5 * (Math.abs(ae + 3) - Math.abs(ae - 3))
      const co = 0.5 * (Math.abs(ao + 3) - Math.abs(ao - 3))
      const ce2 = ce * ce
      const co2 = co * co
      w[HIST + i] = (co * (27 + co2)) / (27 + 9 * co2)
      e[HIST + i] = (ce * (27 + ce2)) / (27 + 9 * ce2)
    }
    for (let i = 0; i < n; i++) {
      const y =
        t0 * (w[i]! + w[i + 15]!) +
        t1 * (w[i + 1]! + w[i + 14]!) +
        t2 * (w[i + 2]! + w[i + 13]!) +
        t3 * (w[i + 3]! + w[i + 12]!) +
        t4 * (w[i + 4]! + w[i + 11]!) +
        t5 * (w[i + 5]! + w[i + 10]!) +
        t6 * (w[i + 6]! + w[i + 9]!) +
        t7 * (w[i + 7]! + w[i + 8]!) +
        0.5 * e[i + HIST - P + 1]!
      output[outStart + i] = gains[i]! * y
    }
    h.copyWithin(0, n, n + HIST)
    w.copyWithin(0, n, n + HIST)
    e.copyWithin(0, n, n + HIST)
  }

  reset(): void {
    this.up.fill(0)
    this.downOdd.fill(0)
    this.downEven.fill(0)
    this.even = this.odd = 0
  }
}
