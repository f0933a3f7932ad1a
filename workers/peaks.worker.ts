// Comlink worker around workers/peaks.ts; results come back as transferred buffers (no copy).
import { expose } from 'comlink'
import { computePeaks, type ChannelPeaks } from './peaks.ts'
import { createPeaksJobs, sendBackPeaks } from './peaks-jobs.ts'

const api = {
  computePeaks(channels: Float32Array[], buckets: number): ChannelPeaks[] {
    return sendBackPeaks(computePeaks(channels, buckets))
  },
  /** Chunked form: begin → add (any order) → finish. */
  ...createPeaksJobs(),
}

export type PeaksWorkerApi = typeof api
expose(api)
