/** Seeded xorshift32 white noise in [-amplitude, amplitude): every bench renders the same signal each run. */
export function noiseChannel(frames: number, seed: number, amplitude: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(frames)
  let s = seed >>> 0
  for (let i = 0; i < frames; i++) {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    out[i] = amplitude * ((s / 4294967296) * 2 - 1)
  }
  return out
}
