/**
 * The instrument engine (src/engine/instruments/): the General MIDI bank played by the SoundFont
 * synthesizer, measured by numbers in real Chromium.
 * - live == offline: the same note list through the AudioWorklet node (rendered by an
 *   OfflineAudioContext) and through the offline renderer null out.
 * - 'sad jazz piano on a rainy night': its piano has a piano's spectrum (energy above 1 kHz) and a
 *   decaying envelope; the rain raises the 4–12 kHz floor; the render is deterministic.
 */
import { describe, expect, it } from 'vitest'
import { compose, type Score } from '../../workers/composer/index.ts'
import { renderInstrumentScore, renderSynthEvents } from '../../src/engine/instruments/gm-render.ts'
import { createSoundfontNode } from '../../src/engine/instruments/gm-live.ts'
import { scoreToSynthEvents } from '../../src/engine/instruments/score-midi.ts'
import { gmVoices } from '../../src/engine/instruments/gm-voices.ts'
import { renderScore } from '../../src/engine/score-renderer.ts'
import { fft } from '../../dsp/fft.ts'

const RATE = 44100
const N = 4096

/** Power spectrum (Hann window) of each N-frame block of a mono signal. */
function spectra(x: Float32Array): Float64Array[] {
  const out: Float64Array[] = []
  for (let start = 0; start + N <= x.length; start += N) {
    const re = new Float64Array(N)
    const im = new Float64Array(N)
    for (let i = 0; i < N; i++) re[i] = x[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1)))
    fft(re, im)
    const p = new Float64Array(N / 2)
    for (let k = 0; k < N / 2; k++) p[k] = re[k]! ** 2 + im[k]! ** 2
    out.push(p)
  }
  return out
}

const bin = (hz: number) => Math.round((hz * N) / RATE)
const mono = (b: AudioBuffer) => {
  const l = b.getChannelData(0)
  const r = b.getChannelData(1)
  return Float32Array.from(l, (v, i) => 0.5 * (v + r[i]!))
}

/** Share of the signal's energy above 1 kHz (all blocks together). */
function shareAbove1k(x: Float32Array): number {
  let high = 0
  let total = 0
  for (const p of spectra(x))
    for (let k = 1; k < p.length; k++) {
      total += p[k]!
      if (k >= bin(1000)) high += p[k]!
    }
  return high / total
}

/** Median over blocks of the 4–12 kHz band energy, in dB. */
function bandFloorDb(x: Float32Array): number {
  const e = spectra(x).map((p) => {
    let s = 0
    for (let k = bin(4000); k <= bin(12000); k++) s += p[k]!
    return s
  })
  e.sort((a, b) => a - b)
  return 10 * Math.log10(e[Math.floor(e.length / 2)]! + 1e-30)
}

async function digest(buffer: AudioBuffer): Promise<string> {
  const n = buffer.length
  const bytes = new Uint8Array(buffer.numberOfChannels * n * 4)
  for (let c = 0; c < buffer.numberOfChannels; c++) bytes.set(new Uint8Array(buffer.getChannelData(c).slice().buffer), c * n * 4)
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

const DESCRIPTION = 'sad jazz piano on a rainy night'

/** Magnitude-weighted spectral centroid over 60 blocks spread across the piece, as tests/e2e/generator.spec.ts measures it. */
function centroid(x: Float32Array): number {
  let weighted = 0
  let weights = 0
  for (let f = 0; f < 60; f++) {
    const start = Math.floor(((x.length - N) * f) / 60)
    const re = new Float64Array(N)
    const im = new Float64Array(N)
    for (let i = 0; i < N; i++) re[i] = x[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1)))
    fft(re, im)
    for (let k = 1; k < N / 2; k++) {
      const mag = Math.hypot(re[k]!, im[k]!)
      weighted += ((k * RATE) / N) * mag
      weights += mag
    }
  }
  return weighted / weights
}

/** The same piece with its description's rain taken out (everything else, the notes included, kept). */
const withoutRain = (score: Score): Score => ({ ...score, description: score.description.replace('rainy', 'quiet') })

describe('instrument engine', () => {
  it('the live AudioWorklet node and the offline renderer play a note list to the same samples (null test below -60 dBFS)', async () => {
    const score = compose({ description: DESCRIPTION, minDurationSeconds: 8 })
    const seconds = 4
    const events = scoreToSynthEvents(score, {
      sampleRate: RATE,
      from: score.sections[1]!.startTime,
      to: score.sections[1]!.startTime + seconds,
    })
    const frames = seconds * RATE
    const [offL, offR] = await renderSynthEvents(events, frames, { sampleRate: RATE, effects: true })

    const ctx = new OfflineAudioContext(2, frames + RATE, RATE)
    const live = await createSoundfontNode(ctx, events, { effects: true })
    live.node.connect(ctx.destination)
    const rendered = await ctx.startRendering()
    const start = await live.started
    expect(start % 128).toBe(0)
    let peak = 0
    let diff = 0
    for (const [c, off] of [offL, offR].entries()) {
      const on = rendered.getChannelData(c)
      for (let i = 0; i < frames; i++) {
        peak = Math.max(peak, Math.abs(off[i]!))
        diff = Math.max(diff, Math.abs(on[start + i]! - off[i]!))
      }
    }
    console.log(`live vs offline: start frame ${start}, peak ${peak.toFixed(3)}, max difference ${diff.toExponential(2)}`)
    expect(peak).toBeGreaterThan(0.05)
    expect(20 * Math.log10(diff / peak + 1e-12)).toBeLessThan(-60)
  })

  it("the piano of 'sad jazz piano on a rainy night' is the GM grand, with energy above 1 kHz and a decaying envelope", async () => {
    const score = compose({ description: DESCRIPTION })
    expect(gmVoices(score)).toMatchObject({ melody: 0, chords: 0 })
    const verse = score.sections.find((s) => s.layers.melody) ?? score.sections[1]!
    const window = { from: verse.startTime, to: verse.startTime + 12 }
    const piano = mono(await renderInstrumentScore(score, { ...window, parts: ['melody', 'chords'] }))
    const synthetic = mono(await renderScore(score, { ...window, parts: ['melody', 'chords'] }))
    const share = shareAbove1k(piano)
    const before = shareAbove1k(synthetic)

    // Envelope: the melody's notes that sound alone for 400 ms (no other melody or chord onset), RMS in 10 ms steps.
    const onsets = [...score.tracks.melody, ...score.tracks.chords]
      .map((n) => n.time)
      .filter((t) => t >= window.from && t < window.to - 0.5)
    const alone = score.tracks.melody.filter(
      (n) => n.time >= window.from && n.time < window.to - 0.5 && !onsets.some((t) => t > n.time + 0.005 && t < n.time + 0.4),
    )
    const rms = (at: number) => {
      const start = Math.round((at - window.from) * RATE)
      let s = 0
      for (let i = start; i < start + 441; i++) s += piano[i]! ** 2
      return Math.sqrt(s / 441)
    }
    const ratios = alone.map((n) => {
      let peak = 0
      for (let t = 0; t < 0.06; t += 0.01) peak = Math.max(peak, rms(n.time + t))
      return rms(n.time + 0.3) / peak
    })
    console.log(
      `piano: ${(100 * share).toFixed(1)} % of energy above 1 kHz (synthetic renderer: ${(100 * before).toFixed(1)} %); ` +
        `${ratios.length} lone notes, level 300 ms after onset / peak: ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
    )
    expect(share).toBeGreaterThan(0.1)
    expect(ratios.length).toBeGreaterThanOrEqual(2)
    for (const r of ratios) expect(r).toBeLessThan(0.5)
  }, 120_000)

  it('a rain description raises the 4–12 kHz floor by at least 6 dB, and the render is deterministic', async () => {
    const rainy = compose({ description: DESCRIPTION })
    const quiet = withoutRain(rainy)
    const to = 20
    const [a, b, c] = await Promise.all([
      renderInstrumentScore(rainy, { to }),
      renderInstrumentScore(rainy, { to, onProgress: () => {} }),
      renderInstrumentScore(quiet, { to }),
    ])
    const rise = bandFloorDb(mono(a)) - bandFloorDb(mono(c))
    console.log(`rain raises the 4–12 kHz median floor by ${rise.toFixed(1)} dB`)
    expect(rise).toBeGreaterThanOrEqual(6)
    expect(await digest(b)).toBe(await digest(a))
    expect(await digest(a)).not.toBe(await digest(c))
  }, 120_000)

  it('mood and genre still change brightness as the generator journey measures it (dark and ambient < 0.8x the centroid)', async () => {
    const description = 'Neon lights over the harbour'
    const [a, dark, ambient] = await Promise.all(
      (
        [
          ['upbeat', 'electronic'],
          ['dark', 'electronic'],
          ['upbeat', 'ambient'],
        ] as const
      ).map(async ([mood, genre]) => {
        const x = mono(await renderInstrumentScore(compose({ description, mood, genre })))
        let sq = 0
        for (let i = 0; i < x.length; i++) sq += x[i]! ** 2
        return { centroid: centroid(x), rms: Math.sqrt(sq / x.length) }
      }),
    )
    console.log(
      `centroids: upbeat electronic ${a!.centroid.toFixed(0)} Hz, dark ${dark!.centroid.toFixed(0)} Hz, ` +
        `ambient ${ambient!.centroid.toFixed(0)} Hz; RMS ${[a, dark, ambient].map((m) => m!.rms.toFixed(3)).join(' ')}`,
    )
    expect(dark!.centroid).toBeLessThan(a!.centroid * 0.8)
    expect(ambient!.centroid).toBeLessThan(a!.centroid * 0.8)
    // The journey's loudness floors (tests/e2e/generator.spec.ts).
    expect(a!.rms).toBeGreaterThan(0.05)
    expect(dark!.rms).toBeGreaterThan(0.03)
  }, 180_000)
})
