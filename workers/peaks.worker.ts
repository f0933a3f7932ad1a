// Comlink worker around workers/peaks.ts; results come back as transferred buffers (no copy).
import { expose, transfer } from 'comlink'
import { computePeaks, type ChannelPeaks } from './peaks.ts'

const api = {
  computePeaks(channels: Float32Array[], buckets: number): ChannelPeaks[] {
    const peaks = computePeaks(channels, buckets)
    return transfer(peaks, peaks.flatMap((p) => [p.min.buffer, p.max.buffer]))
  },
}

export type PeaksWorkerApi = typeof api
expose(api)
