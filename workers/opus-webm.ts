/**
 * Encodes PCM to Opus in a WebM file with the platform's WebCodecs AudioEncoder and webm-muxer:
 * what the app publishes (publishing_rules() -> 'bitrate_kbps'; never raw WAV). Opus runs at
 * 48 kHz only, so the caller hands 48 kHz channels (src/engine/publish/publish-encode.ts resamples while
 * decoding). Mono or stereo.
 */
import { ArrayBufferTarget, Muxer } from 'webm-muxer'

export const OPUS_SAMPLE_RATE = 48_000
/** Frames handed to the encoder per AudioData: one second. */
const SLICE = OPUS_SAMPLE_RATE

export interface EncodedAudio {
  /** The WebM file (audio/webm; codecs=opus). */
  file: ArrayBuffer
  seconds: number
}

export async function encodeOpusWebm(channels: Float32Array[], sampleRate: number, bitrateKbps: number): Promise<EncodedAudio> {
  if (sampleRate !== OPUS_SAMPLE_RATE) throw new RangeError(`Opus needs ${OPUS_SAMPLE_RATE} Hz audio, not ${sampleRate} Hz`)
  if (channels.length < 1 || channels.length > 2) throw new RangeError(`mono or stereo only, not ${channels.length} channels`)
  const frames = channels[0]!.length
  if (frames === 0 || channels.some((c) => c.length !== frames)) throw new RangeError('the channels must be non-empty and equally long')
  if (!(bitrateKbps >= 16 && bitrateKbps <= 320)) throw new RangeError(`bitrate ${bitrateKbps} kbit/s is outside 16–320`)
  if (typeof AudioEncoder === 'undefined') throw new Error('This browser cannot encode audio (no WebCodecs AudioEncoder).')

  const numberOfChannels = channels.length
  const config: AudioEncoderConfig = { codec: 'opus', sampleRate, numberOfChannels, bitrate: bitrateKbps * 1000 }
  const support = await AudioEncoder.isConfigSupported(config)
  if (!support.supported) throw new Error('This browser cannot encode Opus audio.')

  const muxer = new Muxer({ target: new ArrayBufferTarget(), audio: { codec: 'A_OPUS', sampleRate, numberOfChannels } })
  let failure: unknown
  const encoder = new AudioEncoder({
    output: (chunk, meta) => muxer.addAudioChunk(chunk, meta),
    error: (error) => {
      failure = error
    },
  })
  encoder.configure(config)
  for (let start = 0; start < frames && failure === undefined; start += SLICE) {
    const n = Math.min(SLICE, frames - start)
    const planar = new Float32Array(n * numberOfChannels)
    for (let c = 0; c < numberOfChannels; c++) planar.set(channels[c]!.subarray(start, start + n), c * n)
    const data = new AudioData({
      format: 'f32-planar',
      sampleRate,
      numberOfFrames: n,
      numberOfChannels,
      timestamp: Math.round((start / sampleRate) * 1e6),
      data: planar,
    })
    encoder.encode(data)
    data.close()
  }
  await encoder.flush()
  encoder.close()
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure))
  muxer.finalize()
  return { file: muxer.target.buffer, seconds: frames / sampleRate }
}
