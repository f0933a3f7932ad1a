// Comlink worker around workers/peaks.ts; results come back as transferred buffers (no copy).
import { expose, transfer } from 'comlink'
import { computePeaks, PeaksAccumulator, type ChannelPeaks } from './peaks.ts'

const jobs = new Map<number, PeaksAccumulator>()
let nextJob = 1

const sendBack = (peaks: ChannelPeaks[]) => transfer(peaks, peaks.flatMap((p) => [p.min.buffer, p.max.buffer]))

const api = {
  computePeaks(channels: Float32Array[], buckets: number): ChannelPeaks[] {
    return sendBack(computePeaks(channels, buckets))
  },
  /** Chunked form: begin → add (any order) → finish. */
  beginPeaks(channels: number, length: number, buckets: number): number {
    const id = nextJob++
    jobs.set(id, new PeaksAccumulator(channels, length, buckets))
    return id
  },
  addPeaks(id: number, channel: number, offset: number, samples: Float32Array): void {
    const job = jobs.get(id)
    if (!job) throw new Error(`unknown peaks job ${id}`)
    job.add(channel, offset, samples)
  },
  finishPeaks(id: number): ChannelPeaks[] {
    const job = jobs.get(id)
    if (!job) throw new Error(`unknown peaks job ${id}`)
    jobs.delete(id)
    return sendBack(job.result())
  },
  cancelPeaks(id: number): void {
    jobs.delete(id)
  },
}

export type PeaksWorkerApi = typeof api
expose(api)
