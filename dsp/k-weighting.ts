/**
 * The K-weighting of ITU-R BS.1770-4 (a high shelf for the head's acoustic effect, then the
 * "RLB" high-pass), computed for the actual sample rate. The Recommendation tabulates the two
 * biquads for 48 kHz only; these are the analogue prototypes behind that table (the derivation
 * libebur128 uses), bilinear-transformed at `sampleRate`, so 44.1 kHz files are weighted the same.
 * At 48 kHz they reproduce the Recommendation's coefficients to 1e-8 (k-weighting.test.ts).
 */
export interface Biquad {
  b0: number
  b1: number
  b2: number
  a1: number
  a2: number
}

export interface KWeighting {
  shelf: Biquad
  highPass: Biquad
}

export function kWeighting(sampleRate: number): KWeighting {
  if (!(sampleRate > 0)) throw new RangeError(`sample rate must be positive, not ${sampleRate}`)
  // Stage 1: high shelf, +4 dB above ~1.7 kHz.
  let f0 = 1681.974450955533
  const gainDb = 3.999843853973347
  let q = 0.7071752369554196
  let k = Math.tan((Math.PI * f0) / sampleRate)
  const vh = 10 ** (gainDb / 20)
  const vb = vh ** 0.4996667741545416
  let a0 = 1 + k / q + k * k
  const shelf: Biquad = {
    b0: (vh + (vb * k) / q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q + k * k) / a0,
  }
  // Stage 2: second-order high-pass at ~38 Hz (the numerator is left unnormalised, as tabulated).
  f0 = 38.13547087602444
  q = 0.5003270373238773
  k = Math.tan((Math.PI * f0) / sampleRate)
  a0 = 1 + k / q + k * k
  const highPass: Biquad = { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 }
  return { shelf, highPass }
}

/**
 * Sum of the K-weighted signal's squares over consecutive segments of `segment` samples (a
 * trailing partial segment is dropped). The loudness gate works on these sums, so the filtered
 * signal itself is never stored.
 */
export function kWeightedSegmentEnergy(signal: Float32Array, sampleRate: number, segment: number): Float64Array {
  const { shelf: s, highPass: h } = kWeighting(sampleRate)
  const segments = Math.floor(signal.length / segment)
  const out = new Float64Array(segments)
  // Direct form II transposed, in double precision for both stages.
  let s1 = 0,
    s2 = 0,
    h1 = 0,
    h2 = 0
  let i = 0
  for (let seg = 0; seg < segments; seg++) {
    let sum = 0
    const end = i + segment
    for (; i < end; i++) {
      const x = signal[i]!
      const y = s.b0 * x + s1
      s1 = s.b1 * x - s.a1 * y + s2
      s2 = s.b2 * x - s.a2 * y
      const z = h.b0 * y + h1
      h1 = h.b1 * y - h.a1 * z + h2
      h2 = h.b2 * y - h.a2 * z
      sum += z * z
    }
    out[seg] = sum
  }
  return out
}
