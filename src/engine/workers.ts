/**
 * Main-thread accessors for the Comlink workers (each worker starts on first use and is reused).
 *
 *   computePeaks(channels: Float32Array[], buckets: number, options?: { transfer?: boolean })
 *     : Promise<ChannelPeaks[]>        // per channel { min: Float32Array, max: Float32Array }, length = buckets
 *     options.transfer = true hands the input buffers to the worker (no copy; they become unusable here).
 *   toWaveSurferPeaks(peaks): [Float32Array, Float32Array]   // [max, min] for WaveSurfer's `peaks` option
 *
 *   encodeWav(channels: Float32Array[], sampleRate: number, format: 'pcm16' | 'float32')
 *     : Promise<Blob>                  // type 'audio/wav'; the input arrays are copied, not detached
 *   encodeWavBuffer(...same) : Promise<ArrayBuffer>
 *
 * Errors from bad input (no channels, unequal lengths, bad rate/format/bucket count) reject with
 * the RangeError thrown in the worker. Decoding stays on the native decodeAudioData.
 */
import { transfer as comlinkTransfer, wrap, type Remote } from 'comlink'
import type { PeaksWorkerApi } from '../../workers/peaks.worker.ts'
import type { WavEncoderWorkerApi } from '../../workers/wav-encoder.worker.ts'
import type { ChannelPeaks } from '../../workers/peaks.ts'
import type { WavFormat } from '../../workers/wav-encoding.ts'

export type { ChannelPeaks } from '../../workers/peaks.ts'
export type { WavFormat } from '../../workers/wav-encoding.ts'
export { toWaveSurferPeaks } from '../../workers/peaks.ts'

let peaksWorker: Remote<PeaksWorkerApi> | null = null
let wavWorker: Remote<WavEncoderWorkerApi> | null = null

function peaks(): Remote<PeaksWorkerApi> {
  if (!peaksWorker) {
    peaksWorker = wrap<PeaksWorkerApi>(new Worker(new URL('../../workers/peaks.worker.ts', import.meta.url), { type: 'module', name: 'peaks' }))
  }
  return peaksWorker
}

function wav(): Remote<WavEncoderWorkerApi> {
  if (!wavWorker) {
    wavWorker = wrap<WavEncoderWorkerApi>(new Worker(new URL('../../workers/wav-encoder.worker.ts', import.meta.url), { type: 'module', name: 'wav-encoder' }))
  }
  return wavWorker
}

export async function computePeaks(channels: Float32Array[], buckets: number, options: { transfer?: boolean } = {}): Promise<ChannelPeaks[]> {
  const arg = options.transfer ? comlinkTransfer(channels, uniqueBuffers(channels)) : channels
  return peaks().computePeaks(arg, buckets)
}

export function encodeWavBuffer(channels: Float32Array[], sampleRate: number, format: WavFormat): Promise<ArrayBuffer> {
  return wav().encodeWav(channels, sampleRate, format)
}

export async function encodeWav(channels: Float32Array[], sampleRate: number, format: WavFormat): Promise<Blob> {
  return new Blob([await encodeWavBuffer(channels, sampleRate, format)], { type: 'audio/wav' })
}

function uniqueBuffers(channels: Float32Array[]): ArrayBuffer[] {
  return [...new Set(channels.map((c) => c.buffer as ArrayBuffer))]
}
