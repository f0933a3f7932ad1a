/**
 * Main-thread accessors for the Comlink workers (each worker starts on first use and is reused).
 *
 *   computePeaks(channels: Float32Array[], buckets: number, options?: { transfer?: boolean })
 *     : Promise<ChannelPeaks[]>        // per channel { min: Float32Array, max: Float32Array }, length = buckets
 *     options.transfer = true hands the input buffers to the worker (no copy; they become unusable here).
 *   computeBufferPeaks(buffer: { numberOfChannels, length, copyFromChannel }, buckets: number)
 *     : Promise<ChannelPeaks[]>        // same result for a decoded AudioBuffer, streamed to the worker in
 *                                      // 1 MB slices: no big copy or long task on the main thread
 *   toWaveSurferPeaks(peaks): [Float32Array, Float32Array]   // [max, min] for WaveSurfer's `peaks` option
 *
 *   encodeWav(channels: Float32Array[], sampleRate: number, format: 'pcm16' | 'float32')
 *     : Promise<Blob>                  // type 'audio/wav'; the input arrays are copied, not detached
 *   encodeWavBuffer(...same) : Promise<ArrayBuffer>
 *   decodeWavFile(file: ArrayBuffer) : Promise<{ sampleRate, channels }>   16-bit PCM or 32-bit float
 *                                      WAV, float bit for bit; `file` is transferred (detached here)
 *
 * Errors from bad input (no channels, unequal lengths, bad rate/format/bucket count) reject with
 * the RangeError thrown in the worker. Decoding stays on the native decodeAudioData.
 */
import { transfer as comlinkTransfer, wrap, type Remote } from 'comlink'
import type { PeaksWorkerApi } from '../../workers/peaks.worker.ts'
import type { WavWorkerApi } from '../../workers/wav.worker.ts'
import type { DecodedWav } from '../../workers/wav-decoding.ts'
import type { ChannelPeaks } from '../../workers/peaks.ts'
import type { WavFormat } from '../../workers/wav-encoding.ts'

export type { ChannelPeaks } from '../../workers/peaks.ts'
export type { WavFormat } from '../../workers/wav-encoding.ts'
export { toWaveSurferPeaks } from '../../workers/peaks.ts'

let peaksWorker: Remote<PeaksWorkerApi> | null = null
let wavWorker: Remote<WavWorkerApi> | null = null

function peaks(): Remote<PeaksWorkerApi> {
  if (!peaksWorker) {
    peaksWorker = wrap<PeaksWorkerApi>(
      new Worker(new URL('../../workers/peaks.worker.ts', import.meta.url), { type: 'module', name: 'peaks' }),
    )
  }
  return peaksWorker
}

function wav(): Remote<WavWorkerApi> {
  if (!wavWorker) {
    wavWorker = wrap<WavWorkerApi>(new Worker(new URL('../../workers/wav.worker.ts', import.meta.url), { type: 'module', name: 'wav' }))
  }
  return wavWorker
}

export async function computePeaks(
  channels: Float32Array[],
  buckets: number,
  options: { transfer?: boolean } = {},
): Promise<ChannelPeaks[]> {
  const arg = options.transfer ? comlinkTransfer(channels, uniqueBuffers(channels)) : channels
  return peaks().computePeaks(arg, buckets)
}

/** Samples per slice handed to the worker: 1 MB, well under a millisecond to copy. */
const PEAKS_SLICE = 1 << 18

export interface ChannelSource {
  numberOfChannels: number
  length: number
  copyFromChannel(destination: Float32Array<ArrayBuffer>, channel: number, startInChannel?: number): void
}

export async function computeBufferPeaks(buffer: ChannelSource, buckets: number): Promise<ChannelPeaks[]> {
  const w = peaks()
  const id = await w.beginPeaks(buffer.numberOfChannels, buffer.length, buckets)
  try {
    for (let c = 0; c < buffer.numberOfChannels; c++) {
      for (let offset = 0; offset < buffer.length; offset += PEAKS_SLICE) {
        const slice = new Float32Array(Math.min(PEAKS_SLICE, buffer.length - offset))
        buffer.copyFromChannel(slice, c, offset)
        await w.addPeaks(id, c, offset, comlinkTransfer(slice, [slice.buffer]))
      }
    }
    return await w.finishPeaks(id)
  } catch (err) {
    void w.cancelPeaks(id)
    throw err
  }
}

export function encodeWavBuffer(channels: Float32Array[], sampleRate: number, format: WavFormat): Promise<ArrayBuffer> {
  return wav().encodeWav(channels, sampleRate, format)
}

export async function encodeWav(channels: Float32Array[], sampleRate: number, format: WavFormat): Promise<Blob> {
  return new Blob([await encodeWavBuffer(channels, sampleRate, format)], { type: 'audio/wav' })
}

/** Reads a 16-bit PCM or 32-bit float WAV file (the buffer is handed to the worker: detached here). */
export function decodeWavFile(file: ArrayBuffer): Promise<DecodedWav> {
  return wav().decodeWav(comlinkTransfer(file, [file]))
}

function uniqueBuffers(channels: Float32Array[]): ArrayBuffer[] {
  return [...new Set(channels.map((c) => c.buffer as ArrayBuffer))]
}
