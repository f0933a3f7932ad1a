/** In-place radix-2 FFT of `re`/`im` (length a power of two): the spectra the tests check audio by. */
export function fft(re: Float64Array, im: Float64Array): void {
  const N = re.length
  for (let i = 1, j = 0; i < N; i++) {
    let bit = N >> 1
    for (; j & bit; bit >>= 1) j ^= bit
    j ^= bit
    if (i < j) {
      ;[re[i], re[j]] = [re[j]!, re[i]!]
      ;[im[i], im[j]] = [im[j]!, im[i]!]
    }
  }
  for (let len = 2; len <= N; len <<= 1) {
    const ang = (-2 * Math.PI) / len
    for (let i = 0; i < N; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k)
        const wi = Math.sin(ang * k)
        const h = i + k + len / 2
        const ar = re[h]! * wr - im[h]! * wi
        const ai = re[h]! * wi + im[h]! * wr
        re[h] = re[i + k]! - ar
        im[h] = im[i + k]! - ai
        re[i + k] = re[i + k]! + ar
        im[i + k] = im[i + k]! + ai
      }
    }
  }
}
