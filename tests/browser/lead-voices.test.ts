/**
 * The instrument words of a description change what is heard, not only a label: the same melody
 * rendered (real Tone.js, real OfflineAudioContext) with the saxophone lead a description like
 * "a lonely saxophone" selects, against the vibraphone and flute leads, measured by spectrum and
 * envelope. A reed holds its harmonics while the note lasts; mallets decay and a flute is nearly
 * a pure tone.
 */
import { describe, expect, it } from 'vitest'
import { compose, type Instrument, type Score } from '../../workers/composer/index.ts'
import { renderScore } from '../../src/engine/score-renderer.ts'
import { fft } from '../../dsp/fft.ts'

const N = 4096

interface Measure {
  /** Energy-weighted spectral centroid, Hz. */
  centroid: number
  /** Share of the spectrum's energy above 1.5 kHz: the upper harmonics. */
  upper: number
  /** Median of the 20 ms RMS envelope over its maximum: how much of the sound is held. */
  sustain: number
}

function measure(buffer: AudioBuffer): Measure {
  const n = buffer.length
  const mono = new Float32Array(n)
  for (let c = 0; c < buffer.numberOfChannels; c++) {
    const d = buffer.getChannelData(c)
    for (let i = 0; i < n; i++) mono[i]! += d[i]! / buffer.numberOfChannels
  }
  let num = 0
  let den = 0
  let high = 0
  for (let start = 0; start + N <= n; start += N / 2) {
    const re = new Float64Array(N)
    const im = new Float64Array(N)
    for (let i = 0; i < N; i++) re[i] = mono[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1)))
    fft(re, im)
    for (let k = 1; k < N / 2; k++) {
      const power = re[k]! ** 2 + im[k]! ** 2
      const hz = (k * buffer.sampleRate) / N
      num += hz * power
      den += power
      if (hz > 1500) high += power
    }
  }
  const hop = Math.round(buffer.sampleRate * 0.02)
  const env: number[] = []
  for (let s = 0; s + hop <= n; s += hop) {
    let sq = 0
    for (let i = s; i < s + hop; i++) sq += mono[i]! ** 2
    env.push(Math.sqrt(sq / hop))
  }
  const sorted = [...env].sort((a, b) => a - b)
  return { centroid: num / den, upper: high / den, sustain: sorted[Math.floor(sorted.length / 2)]! / sorted.at(-1)! }
}

async function renderLead(instruments: Instrument[]): Promise<{ score: Score; m: Measure }> {
  // Same description, mood and genre: the same notes (same seed); only the lead voice differs.
  const score = compose({ description: 'a melody for three voices', mood: 'sad', genre: 'electronic', instruments })
  const verse = score.sections.find((s) => s.name === 'verse' && s.layers.melody)!
  const buffer = await renderScore(score, { parts: ['melody'], from: verse.startTime, to: verse.startTime + 8 })
  return { score, m: measure(buffer) }
}

describe('lead voices chosen by instrument words', () => {
  it('the saxophone lead is brighter than the vibraphone and flute leads and holds notes the vibraphone lets decay', async () => {
    const sax = await renderLead(['saxophone'])
    const vibes = await renderLead(['vibraphone'])
    const flute = await renderLead(['flute'])
    expect(sax.score.instrumentation.lead).toBe('sax')
    expect(vibes.score.instrumentation.lead).toBe('vibes')
    expect(flute.score.instrumentation.lead).toBe('flute')
    expect(sax.score.tracks.melody).toEqual(vibes.score.tracks.melody)
    console.info('lead voices', JSON.stringify({ sax: sax.m, vibes: vibes.m, flute: flute.m }))
    expect(sax.m.centroid).toBeGreaterThan(vibes.m.centroid * 1.3)
    expect(sax.m.centroid).toBeGreaterThan(flute.m.centroid * 1.3)
    expect(sax.m.upper).toBeGreaterThan(vibes.m.upper * 2)
    expect(sax.m.upper).toBeGreaterThan(flute.m.upper * 2)
    expect(sax.m.sustain).toBeGreaterThan(vibes.m.sustain * 1.3)
  })
})
