/**
 * Waveform peaks from a song file's bytes without a long main-thread task, whatever its length.
 *
 *   peaksFromBytes(bytes, buckets, options?): Promise<DecodedPeaks>   { peaks (per channel), duration (s), via }
 *     options.webCodecs = false forces the split path (tests; browsers without AudioDecoder 'mp3').
 *
 * Three paths, chosen in the decode worker (workers/peaks-decode.worker.ts):
 *   'webcodecs' — MP3 decoded and reduced to peaks inside the worker with WebCodecs' AudioDecoder:
 *                 the main thread only hands over the bytes.
 *   'split'     — MP3 without a usable AudioDecoder: native decodeAudioData on frame-aligned chunks of
 *                 ~20 s, one after another, so each decoded AudioBuffer Chrome materialises on the
 *                 main thread is small; each chunk's samples go to one peaks job in the worker.
 *   'whole'     — any other format (or a file WebCodecs rejects): one native decodeAudioData at
 *                 WAVEFORM_DECODE_RATE (its cost grows with the length of the file).
 * The decode worker starts on first use and is reused.
 */
import { OfflineAudioContext, type IAudioBuffer } from 'standardized-audio-context'
import { transfer, wrap, type Remote } from 'comlink'
import type { PeaksDecodeWorkerApi, SplitPlan } from '../../workers/peaks-decode.worker.ts'
import type { ChannelPeaks } from '../../workers/peaks.ts'
import { computeBufferPeaks } from './workers.ts'

/**
 * Rate of the native decodes here (the decoder resamples off the main thread), so the decoded
 * buffer Chrome hands to the main thread is ~11x smaller than at 44.1 kHz. A display waveform of a
 * few thousand buckets loses nothing visible; playback never uses this buffer.
 */
export const WAVEFORM_DECODE_RATE = 4000

export interface DecodedPeaks {
  peaks: ChannelPeaks[]
  duration: number
  via: 'webcodecs' | 'split' | 'whole'
}

const CORRUPT = 'the audio file is corrupt or in an unsupported format'
/** Samples per slice handed to the worker: 1 MB, well under a millisecond to copy. */
const SLICE = 1 << 18

let worker: Remote<PeaksDecodeWorkerApi> | null = null
function decodeWorker(): Remote<PeaksDecodeWorkerApi> {
  worker ??= wrap<PeaksDecodeWorkerApi>(
    new Worker(new URL('../../workers/peaks-decode.worker.ts', import.meta.url), { type: 'module', name: 'peaks-decode' }),
  )
  return worker
}

// Decode-only offline contexts, one per rate, reused: they never render and are not a second
// playback context (creating one per chunk costs main-thread time and garbage).
const contexts = new Map<number, OfflineAudioContext>()
function decodeContext(rate: number): OfflineAudioContext {
  let ctx = contexts.get(rate)
  if (!ctx) contexts.set(rate, (ctx = new OfflineAudioContext({ numberOfChannels: 1, length: 1, sampleRate: rate })))
  return ctx
}

async function decode(bytes: ArrayBuffer, rate = WAVEFORM_DECODE_RATE): Promise<IAudioBuffer> {
  try {
    return await decodeContext(rate).decodeAudioData(bytes)
  } catch {
    throw new Error(CORRUPT)
  }
}

/** The bytes are handed to the worker (detached here). */
export async function peaksFromBytes(bytes: ArrayBuffer, buckets: number, options: { webCodecs?: boolean } = {}): Promise<DecodedPeaks> {
  const w = decodeWorker()
  const outcome = await w.songPeaks(transfer(bytes, [bytes]), buckets, options)
  if (outcome.kind === 'peaks') return { peaks: outcome.peaks, duration: outcome.duration, via: 'webcodecs' }
  if (outcome.kind === 'split')
    return {
      peaks: await splitPeaks(w, outcome.bytes, outcome.plan, buckets),
      duration: outcome.plan.length / outcome.plan.sampleRate,
      via: 'split',
    }
  const decoded = await decode(outcome.bytes)
  return { peaks: await computeBufferPeaks(decoded, buckets), duration: decoded.duration, via: 'whole' }
}

/**
 * The rate, near WAVEFORM_DECODE_RATE, at which a whole MP3 frame is a whole number of samples, so
 * every chunk's decode is resampled on the same sample grid as one whole-file decode (a 4 kHz
 * waveform's peaks depend on where its samples fall: chunks off the grid by a fraction of a sample
 * read peaks a few per cent apart). Such a rate exists for every MPEG sample rate (44.1 kHz → 3675).
 */
export function splitDecodeRate(sampleRate: number, samplesPerFrame: number): number {
  for (let d = 0; d <= 2000; d++) {
    for (const r of [WAVEFORM_DECODE_RATE - d, WAVEFORM_DECODE_RATE + d]) {
      if ((samplesPerFrame * r) % sampleRate === 0) return r
    }
  }
  return WAVEFORM_DECODE_RATE
}

async function splitPeaks(w: Remote<PeaksDecodeWorkerApi>, bytes: ArrayBuffer, plan: SplitPlan, buckets: number): Promise<ChannelPeaks[]> {
  const rate = splitDecodeRate(plan.sampleRate, plan.samplesPerFrame)
  const scale = rate / plan.sampleRate
  const length = Math.round(plan.length * scale)
  const id = await w.beginPeaks(plan.channels, length, buckets)
  try {
    for (const chunk of plan.chunks) {
      const part = await decode(bytes.slice(chunk.byteStart, chunk.byteEnd), rate)
      const drop = Math.round(chunk.drop * scale)
      // Where this decode's sample `drop` lands on the (resampled) gapless timeline.
      const at = Math.round((chunk.rawStart + chunk.drop - plan.skip) * scale)
      const channels = Math.min(plan.channels, part.numberOfChannels)
      for (let c = 0; c < plan.channels; c++) {
        for (let i = drop; i < part.length; i += SLICE) {
          const to = Math.min(part.length, i + SLICE)
          const from = Math.max(i, drop - at) // nothing before the timeline's start
          if (to <= from || at + from - drop >= length) continue
          const slice = new Float32Array(to - from)
          part.copyFromChannel(slice, Math.min(c, channels - 1), from)
          await w.addPeaks(id, c, at + from - drop, transfer(slice, [slice.buffer]))
        }
      }
    }
    return await w.finishPeaks(id)
  } catch (err) {
    void w.cancelPeaks(id)
    throw err
  }
}
