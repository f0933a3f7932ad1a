/**
 * Turns any audio the user made (WAV from the generator or a mix, an uploaded MP3/OGG/…) into the
 * compressed file that is published: decoded and resampled to 48 kHz by the browser's decoder
 * (an OfflineAudioContext at that rate), then encoded to Opus/WebM in a worker
 * (workers/publish-encode.worker.ts) at `bitrateKbps`; the same worker measures its loudness
 * (BS.1770-4 integrated loudness and true peak, dsp/song-loudness.ts) on the decoded audio.
 *
 *   encodeForPublishing(audio: Blob, bitrateKbps: number)
 *       : Promise<{ blob: Blob; seconds: number; loudnessLufs: number | null; truePeakDbtp: number | null }>
 *       rejects PublishEncodeError with a message for the user when the file is not audio.
 */
import { transfer, wrap, type Remote } from 'comlink'
import type { PublishEncodeWorkerApi } from '../../../workers/publish-encode.worker.ts'
import { OPUS_SAMPLE_RATE } from '../../../workers/opus-webm.ts'

export class PublishEncodeError extends Error {
  override name = 'PublishEncodeError'
}

let worker: Remote<PublishEncodeWorkerApi> | null = null

function encoderWorker(): Remote<PublishEncodeWorkerApi> {
  worker ??= wrap<PublishEncodeWorkerApi>(
    new Worker(new URL('../../../workers/publish-encode.worker.ts', import.meta.url), { type: 'module', name: 'publish-encode' }),
  )
  return worker
}

export async function decodeAt48k(audio: Blob): Promise<AudioBuffer> {
  const bytes = await audio.arrayBuffer()
  if (bytes.byteLength === 0) throw new PublishEncodeError('The file is empty.')
  try {
    return await new OfflineAudioContext(2, 1, OPUS_SAMPLE_RATE).decodeAudioData(bytes)
  } catch {
    throw new PublishEncodeError('This file is not audio the browser can read, so it cannot be published.')
  }
}

export interface PublishableAudio {
  blob: Blob
  seconds: number
  /** null: the track is silence (below the −70 LUFS gate). */
  loudnessLufs: number | null
  truePeakDbtp: number | null
}

export async function encodeForPublishing(audio: Blob, bitrateKbps: number): Promise<PublishableAudio> {
  const buffer = await decodeAt48k(audio)
  const channels = Array.from({ length: Math.min(2, buffer.numberOfChannels) }, (_, c) => buffer.getChannelData(c).slice())
  const encoded = await encoderWorker().encodeAndMeasure(
    transfer(
      channels,
      channels.map((c) => c.buffer),
    ),
    OPUS_SAMPLE_RATE,
    bitrateKbps,
  )
  return {
    blob: new Blob([encoded.file], { type: 'audio/webm' }),
    seconds: encoded.seconds,
    loudnessLufs: encoded.loudnessLufs,
    truePeakDbtp: encoded.truePeakDbtp,
  }
}
