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
    // Two independent accumulator pairs let the CPU overlap the comparisons; the ternaries
    // skip NaN (every comparison with NaN is false).
    let lo0 = Infinity
    let hi0 = -Infinity
    let lo1 = Infinity
    let hi1 = -Infinity
    let i = start
    for (; i + 1 < end; i += 2) {
      const x = data[i]!
      const y = data[i + 1]!
      lo0 = x < lo0 ? x : lo0
      hi0 = x > hi0 ? x : hi0
      lo1 = y < lo1 ? y : lo1
      hi1 = y > hi1 ? y : hi1
    }
    if (i < end) {
      const x = data[i]!
      lo0 = x < lo0 ? x : lo0
      hi0 = x > hi0 ? x : hi0
    }
    const lo = lo0 < lo1 ? lo0 : lo1
    const hi = hi0 > hi1 ? hi0 : hi1
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

/**
 * The same peaks, fed in chunks (so a long recording never has to exist as one copy in the
 * worker's caller): `add(channel, offset, samples)` in any order, then `result()`. Gives exactly
 * what computePeaks gives on the whole signal.
 */
export class PeaksAccumulator {
  private readonly min: Float32Array<ArrayBuffer>[]
  private readonly max: Float32Array<ArrayBuffer>[]

  constructor(
    readonly channels: number,
    readonly length: number,
    readonly buckets: number,
  ) {
    if (!Number.isInteger(buckets) || buckets < 1) throw new RangeError(`buckets must be a positive integer, got ${buckets}`)
    if (!Number.isInteger(channels) || channels < 1) throw new RangeError(`channels must be a positive integer, got ${channels}`)
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`length must be a non-negative integer, got ${length}`)
    this.min = Array.from({ length: channels }, () => new Float32Array(buckets).fill(Infinity))
    this.max = Array.from({ length: channels }, () => new Float32Array(buckets).fill(-Infinity))
  }

  private range(b: number): [number, number] {
    const n = this.length
    let start = Math.floor((b * n) / this.buckets)
    let end = Math.floor(((b + 1) * n) / this.buckets)
    if (end <= start) end = start + 1
    if (start >= n) start = n - 1
    if (end > n) end = n
    return [start, end]
  }

  add(channel: number, offset: number, samples: Float32Array): void {
    const mins = this.min[channel]
    const maxs = this.max[channel]
    if (!mins || !maxs) throw new RangeError(`no channel ${channel}`)
    const n = this.length
    const from = offset
    const to = Math.min(n, offset + samples.length)
    if (from < 0 || from >= to) return
    // First bucket whose range can hold `from` (step back over zero-width neighbours).
    let b = Math.max(0, Math.min(this.buckets - 1, Math.ceil(((from + 1) * this.buckets) / n) - 1))
    while (b > 0 && this.range(b - 1)[1] > from) b--
    for (; b < this.buckets; b++) {
      const [start, end] = this.range(b)
      if (start >= to) break
      const s = Math.max(start, from)
      const e = Math.min(end, to)
      let lo = mins[b]!
      let hi = maxs[b]!
      for (let i = s - offset, last = e - offset; i < last; i++) {
        const v = samples[i]!
        lo = v < lo ? v : lo
        hi = v > hi ? v : hi
      }
      mins[b] = lo
      maxs[b] = hi
    }
  }

  result(): ChannelPeaks[] {
    return this.min.map((mins, c) => {
      const maxs = this.max[c]!
      return {
        min: mins.map((v) => (v === Infinity ? 0 : v)),
        max: maxs.map((v) => (v === -Infinity ? 0 : v)),
      }
    })
  }
}
