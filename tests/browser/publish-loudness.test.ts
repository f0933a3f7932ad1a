// A published track's loudness is measured in the publish worker on the audio it encodes: a WAV
// of EBU Tech 3341's case 1 (stereo 1 kHz sine at −23 dBFS) goes through encodeForPublishing as
// the Publish dialog sends it, and comes back at −23.0 ±0.1 LUFS, true peak −23 dBTP, beside the
// Opus/WebM file to upload.
import { describe, expect, it } from 'vitest'
import { encodeForPublishing } from '../../src/engine/publish/publish-encode.ts'
import { encodeWav } from '../../src/engine/workers.ts'

function sine(dbfs: number, seconds: number, sampleRate: number): Float32Array {
  const a = 10 ** (dbfs / 20)
  return Float32Array.from({ length: seconds * sampleRate }, (_, i) => a * Math.sin((2 * Math.PI * 1000 * i) / sampleRate))
}

describe('published track loudness', () => {
  for (const sampleRate of [48000, 44100])
    it(`measures a ${sampleRate / 1000} kHz stereo −23 dBFS sine at −23.0 ±0.1 LUFS before encoding`, async () => {
      const tone = sine(-23, 5, sampleRate)
      const wav = await encodeWav([tone, tone], sampleRate, 'float32')
      const published = await encodeForPublishing(wav, 96)
      expect(published.blob.size).toBeGreaterThan(1000)
      expect(published.seconds).toBeCloseTo(5, 1)
      expect(Math.abs(published.loudnessLufs! + 23)).toBeLessThanOrEqual(0.1)
      expect(Math.abs(published.truePeakDbtp! + 23)).toBeLessThanOrEqual(0.2)
    })

  it('gives no loudness for silence (nothing is recorded, the song plays as it is)', async () => {
    const wav = await encodeWav([new Float32Array(48000 * 2), new Float32Array(48000 * 2)], 48000, 'float32')
    const published = await encodeForPublishing(wav, 96)
    expect(published.loudnessLufs).toBeNull()
  })
})
