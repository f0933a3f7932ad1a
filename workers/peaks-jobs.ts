/**
 * Chunked peak jobs shared by the peaks workers: begin → add (any order) → finish, each job a
 * PeaksAccumulator keyed by id. Results go back as transferred buffers (no copy).
 */
import { transfer } from 'comlink'
import { PeaksAccumulator, type ChannelPeaks } from './peaks.ts'

export const sendBackPeaks = (peaks: ChannelPeaks[]) =>
  transfer(
    peaks,
    peaks.flatMap((p) => [p.min.buffer, p.max.buffer]),
  )

export function createPeaksJobs() {
  const jobs = new Map<number, PeaksAccumulator>()
  let nextJob = 1
  const job = (id: number) => {
    const j = jobs.get(id)
    if (!j) throw new Error(`unknown peaks job ${id}`)
    return j
  }
  return {
    beginPeaks(channels: number, length: number, buckets: number): number {
      const id = nextJob++
      jobs.set(id, new PeaksAccumulator(channels, length, buckets))
      return id
    },
    addPeaks(id: number, channel: number, offset: number, samples: Float32Array): void {
      job(id).add(channel, offset, samples)
    },
    finishPeaks(id: number): ChannelPeaks[] {
      const result = job(id).result()
      jobs.delete(id)
      return sendBackPeaks(result)
    },
    cancelPeaks(id: number): void {
      jobs.delete(id)
    },
  }
}
