/**
 * Waveform peaks of an MP3 decoded with WebCodecs' AudioDecoder, for the decode worker: the whole
 * decode and the peak computation happen off the main thread, and no decoded buffer is ever held
 * in full (each decoded block goes into a PeaksAccumulator and is dropped).
 *
 *   mp3DecoderSupported(stream): Promise<boolean>     AudioDecoder exists and takes codec 'mp3'
 *   mp3PeaksWebCodecs(bytes, stream, buckets): Promise<ChannelPeaks[]>
 *
 * One decoder is fed every frame in order, so the bit reservoir and overlap carry across the whole
 * file exactly as in a native whole-file decode; the leading encoder+decoder delay is skipped and
 * the tail cut at decodedLength (the gapless timeline decodeAudioData gives).
 */
import { decodedLength, leadingSkip, type Mp3Stream } from './mp3-frames.ts'
import { PeaksAccumulator, type ChannelPeaks } from './peaks.ts'

/** Frames queued in the decoder at most: enough to keep it busy, bounded memory. */
const MAX_QUEUE = 64

function decoderConfig(s: Mp3Stream): AudioDecoderConfig {
  return { codec: 'mp3', sampleRate: s.sampleRate, numberOfChannels: s.channels }
}

export async function mp3DecoderSupported(s: Mp3Stream): Promise<boolean> {
  if (typeof AudioDecoder === 'undefined' || typeof EncodedAudioChunk === 'undefined') return false
  try {
    return (await AudioDecoder.isConfigSupported(decoderConfig(s))).supported === true
  } catch {
    return false
  }
}

export async function mp3PeaksWebCodecs(bytes: Uint8Array, s: Mp3Stream, buckets: number): Promise<ChannelPeaks[]> {
  const length = decodedLength(s)
  const acc = new PeaksAccumulator(s.channels, length, buckets)
  const skip = leadingSkip(s)
  let produced = 0 // samples per channel output so far (before the skip)
  let scratch = new Float32Array(0)
  let fail: (e: unknown) => void = () => {}
  const failed = new Promise<never>((_, reject) => (fail = reject))
  failed.catch(() => {})

  const decoder = new AudioDecoder({
    output(data) {
      try {
        const n = data.numberOfFrames
        const from = produced - skip // where this block starts on the gapless timeline
        produced += n
        const lo = Math.max(0, -from)
        const hi = Math.min(n, length - from)
        if (hi > lo) {
          if (scratch.length < n) scratch = new Float32Array(n)
          const channels = Math.min(s.channels, data.numberOfChannels)
          for (let c = 0; c < channels; c++) {
            data.copyTo(scratch, { planeIndex: c, format: 'f32-planar', frameCount: n })
            acc.add(c, from + lo, scratch.subarray(lo, hi))
          }
          // A mono decode of a stream declared stereo still fills both channels.
          for (let c = channels; c < s.channels; c++) acc.add(c, from + lo, scratch.subarray(lo, hi))
        }
      } catch (e) {
        fail(e)
      } finally {
        data.close()
      }
    },
    error: (e) => fail(e),
  })
  try {
    decoder.configure(decoderConfig(s))
    const usPerFrame = (s.samplesPerFrame * 1e6) / s.sampleRate
    for (let i = 0; i < s.offsets.length; i++) {
      const at = s.offsets[i]!
      decoder.decode(
        new EncodedAudioChunk({ type: 'key', timestamp: Math.round(i * usPerFrame), data: bytes.subarray(at, at + s.lengths[i]!) }),
      )
      if (decoder.decodeQueueSize > MAX_QUEUE) {
        await Promise.race([new Promise((r) => decoder.addEventListener('dequeue', r, { once: true })), failed])
      }
    }
    await Promise.race([decoder.flush(), failed])
  } finally {
    if (decoder.state !== 'closed') decoder.close()
  }
  return acc.result()
}
