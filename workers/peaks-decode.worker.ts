/**
 * Comlink worker: waveform peaks straight from a song file's bytes.
 *
 *   songPeaks(bytes, buckets, { webCodecs = true }): Promise<SongDecodeOutcome>
 *     'peaks' — an MP3 decoded here with WebCodecs (nothing decoded on the main thread);
 *     'split' — an MP3 but no usable AudioDecoder: the bytes come back with a frame-aligned chunk
 *               plan for bounded decodeAudioData calls on the main thread;
 *     'whole' — not a splittable MP3 (WAV, OGG, FLAC, AAC...), or the WebCodecs decode failed:
 *               the bytes come back for one native decodeAudioData.
 *   beginPeaks / addPeaks / finishPeaks / cancelPeaks — the chunked peak jobs of peaks.worker.ts,
 *     here so the 'split' chunks all add into one job.
 */
import { expose, transfer } from 'comlink'
import { leadingSkip, decodedLength, parseMp3, splitFrames } from './mp3-frames.ts'
import { mp3DecoderSupported, mp3PeaksWebCodecs } from './peaks-webcodecs.ts'
import { createPeaksJobs } from './peaks-jobs.ts'
import type { ChannelPeaks } from './peaks.ts'

/** Audio per main-thread decodeAudioData call in the 'split' plan. */
export const SPLIT_SECONDS = 20

export interface SplitChunk {
  /** Byte range to decode: one priming frame (except for the first chunk) + the chunk's frames. */
  byteStart: number
  byteEnd: number
  /** Index, in the whole stream's raw decoder output, of this decode's first sample. */
  rawStart: number
  /** Leading samples of this decode to drop (the priming frame: its bit reservoir is missing). */
  drop: number
}

export interface SplitPlan {
  sampleRate: number
  samplesPerFrame: number
  channels: number
  /** Raw decoder-output samples before the gapless timeline starts. */
  skip: number
  /** Samples per channel on the gapless timeline. */
  length: number
  chunks: SplitChunk[]
}

export type SongDecodeOutcome =
  | { kind: 'peaks'; peaks: ChannelPeaks[]; duration: number }
  | { kind: 'split'; bytes: ArrayBuffer; plan: SplitPlan }
  | { kind: 'whole'; bytes: ArrayBuffer }

const giveBack = (o: SongDecodeOutcome & { bytes: ArrayBuffer }): SongDecodeOutcome => transfer(o, [o.bytes])

const api = {
  async songPeaks(bytes: ArrayBuffer, buckets: number, options: { webCodecs?: boolean } = {}): Promise<SongDecodeOutcome> {
    const view = new Uint8Array(bytes)
    const stream = parseMp3(view)
    if (!stream) return giveBack({ kind: 'whole', bytes })
    if (options.webCodecs !== false && (await mp3DecoderSupported(stream))) {
      try {
        const peaks = await mp3PeaksWebCodecs(view, stream, buckets)
        const outcome: SongDecodeOutcome = { kind: 'peaks', peaks, duration: decodedLength(stream) / stream.sampleRate }
        return transfer(
          outcome,
          peaks.flatMap((p) => [p.min.buffer, p.max.buffer]),
        )
      } catch {
        // A frame the decoder rejects: let the native whole-file decode judge the file.
        return giveBack({ kind: 'whole', bytes })
      }
    }
    const spf = stream.samplesPerFrame
    const chunks = splitFrames(stream, SPLIT_SECONDS).map(({ first, end }): SplitChunk => {
      const prime = first > 0 ? 1 : 0
      return {
        byteStart: stream.offsets[first - prime]!,
        byteEnd: stream.offsets[end - 1]! + stream.lengths[end - 1]!,
        rawStart: (first - prime) * spf,
        drop: prime * spf,
      }
    })
    const plan: SplitPlan = {
      sampleRate: stream.sampleRate,
      samplesPerFrame: spf,
      channels: stream.channels,
      skip: leadingSkip(stream),
      length: decodedLength(stream),
      chunks,
    }
    return giveBack({ kind: 'split', bytes, plan })
  },
  ...createPeaksJobs(),
}

export type PeaksDecodeWorkerApi = typeof api
expose(api)
