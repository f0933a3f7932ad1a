/**
 * Waveform peaks: for each channel, the minimum and maximum sample of each of `buckets` equal
 * slices of the signal. Pure (no DOM), so it runs in the peaks worker and in Node tests.
 *
 * Bucket i covers samples [floor(i·n/b), floor((i+1)·n/b)); when there are fewer samples than
 * buckets a bucket holds the one sample under it, so any length maps onto any bucket count.
 * NaN samples are skipped (a bucket of only NaN reads 0).
 */
export interface ChannelPeaks {
  min: Float32Array<ArrayBuffer>
  max: Float32Array<ArrayBuffer>
}

export function computePeaks(channels: readonly Float32Array[], buckets: number): ChannelPeaks[] {
  if (!Number.isInteger(buckets) || buckets < 1) throw new RangeError(`buckets must be a positive integer, got ${buckets}`)
  return channels.map((ch) => channelPeaks(ch, buckets))
}

function channelPeaks(data: Float32Array, buckets: number): ChannelPeaks {
  const min = new Float32Array(buckets)
  const max = new Float32Array(buckets)
  const n = data.length
  if (n === 0) return { min, max }
  for (let b = 0; b < buckets; b++) {
    let start = Math.floor((b * n) / buckets)
    let end = Math.floor(((b + 1) * n) / buckets)
    if (end <= start) end = start + 1
    if (start >= n) start = n - 1
    if (end > n) end = n
    let lo = Infinity
    let hi = -Infinity
    for (let i = start; i < end; i++) {
      const v = data[i]!
      if (v < lo) lo = v
      if (v > hi) hi = v
    }
    min[b] = lo === Infinity ? 0 : lo
    max[b] = hi === -Infinity ? 0 : hi
  }
  return { min, max }
}

/**
 * wavesurfer.js draws channel 0's magnitude above the centre line and channel 1's below it, so a
 * combined waveform is [max over channels, min over channels].
 */
export function toWaveSurferPeaks(peaks: readonly ChannelPeaks[]): [Float32Array, Float32Array] {
  const len = peaks[0]?.max.length ?? 0
  const top = new Float32Array(len)
  const bottom = new Float32Array(len)
  for (let i = 0; i < len; i++) {
    let hi = -Infinity
    let lo = Infinity
    for (const p of peaks) {
      if (p.max[i]! > hi) hi = p.max[i]!
      if (p.min[i]! < lo) lo = p.min[i]!
    }
    top[i] = hi
    bottom[i] = lo
  }
  return [top, bottom]
}
