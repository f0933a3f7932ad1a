/**
 * A scene word is heard: "ocean waves" rendered (real Tone.js, real OfflineAudioContext) carries
 * the waves' foam above 4 kHz, where the same calm ambient piece without its texture layer has
 * almost nothing (its brightness filters close near 1 kHz).
 */
import { describe, expect, it } from 'vitest'
import { compose } from '../../workers/composer/index.ts'
import { renderScore } from '../../src/engine/score-renderer.ts'
import { fft } from '../../dsp/fft.ts'

const N = 4096
const RATE = 32000

/** Power above 4 kHz over all of it, both channels, Hann-windowed frames. */
function shareAbove4k(buffer: AudioBuffer): number {
  let above = 0
  let all = 0
  for (let c = 0; c < buffer.numberOfChannels; c++) {
    const d = buffer.getChannelData(c)
    for (let start = 0; start + N <= d.length; start += N) {
      const re = new Float64Array(N)
      const im = new Float64Array(N)
      for (let i = 0; i < N; i++) re[i] = d[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1)))
      fft(re, im)
      for (let k = 1; k < N / 2; k++) {
        const power = re[k]! ** 2 + im[k]! ** 2
        all += power
        if ((k * RATE) / N > 4000) above += power
      }
    }
  }
  return above / all
}

describe('scene words are heard', () => {
  it('"ocean waves" has energy above 4 kHz; the same piece without its waves has next to none', async () => {
    const score = compose({ description: 'ocean waves' })
    expect(score.textures).toEqual(['waves'])
    const options = { sampleRate: RATE, from: 0, to: 8, normalise: false }
    const withWaves = shareAbove4k(await renderScore(score, options))
    const without = shareAbove4k(await renderScore({ ...score, textures: [] }, options))
    expect(withWaves).toBeGreaterThan(0.01)
    expect(withWaves).toBeGreaterThan(20 * without)
  })
})
