/**
 * The instrument engine (src/engine/instruments/): how fast a composed 60 s piece renders with the
 * GM SoundFont synthesizer, in times real time (the generator's target: at least 10x on this
 * machine), for a few styles whose instruments and polyphony differ; plus the one-off cost of
 * fetching and parsing the bank. CPU seconds beside wall time, since the machine is shared.
 */
import { compose, type Genre, type Mood } from '../../workers/composer/index.ts'
import { loadGmSoundBank } from '../../src/engine/instruments/gm-bank.ts'
import { renderInstrumentScore } from '../../src/engine/instruments/gm-render.ts'
import { renderInstrumentAudio } from '../../src/engine/instruments/instrument-render.ts'
import type { Note } from '../../src/engine/instruments/note-track.ts'
import type { BenchResult } from '../types.ts'

const PIECES: [string, Mood | undefined, Genre | undefined][] = [
  ['sad jazz piano on a rainy night', undefined, undefined],
  ['benchmark piece: a city at night', 'upbeat', 'electronic'],
  ['benchmark piece: a city at night', 'epic', 'classical'],
]

const cpu = async (): Promise<number | null> =>
  (window as unknown as { cubeBenchCpuSeconds?: () => Promise<number | null> }).cubeBenchCpuSeconds?.() ?? null

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  const t0 = performance.now()
  await loadGmSoundBank()
  results.push({ name: 'bank fetch + parse (first use)', value: (performance.now() - t0) / 1000, unit: 's', detail: 'FluidR3Mono GM SF3' })
  // Warm-up: decodes the samples the pieces use first and JIT-compiles the synthesizer.
  await renderInstrumentScore(compose({ description: 'warm up', minDurationSeconds: 8 }))
  const ratios: number[] = []
  for (const [description, mood, genre] of PIECES) {
    const score = compose({ description, mood, genre, minDurationSeconds: 60 })
    const c0 = await cpu()
    const start = performance.now()
    const buffer = await renderInstrumentScore(score)
    const wall = (performance.now() - start) / 1000
    const c1 = await cpu()
    const ratio = buffer.duration / wall
    ratios.push(ratio)
    results.push({
      name: `render ${score.mood} ${score.genre}`,
      value: ratio,
      unit: 'x real time',
      detail:
        `${buffer.duration.toFixed(1)} s of audio in ${wall.toFixed(2)} s` +
        (c0 !== null && c1 !== null ? `, ${(c1 - c0).toFixed(2)} CPU s (${(buffer.duration / (c1 - c0)).toFixed(1)}x per CPU s)` : ''),
    })
  }
  ratios.sort((a, b) => a - b)
  results.push({ name: 'render median', value: ratios[Math.floor(ratios.length / 2)]!, unit: 'x real time', detail: 'target ≥ 10x' })
  // A studio instrument track after an edit: 16 bars of four-note piano chords on every beat at 120 BPM.
  const notes: Note[] = []
  for (let b = 0; b < 64; b++)
    for (const [i, k] of [48, 55, 60, 64].entries())
      notes.push({ id: `${b}-${i}`, key: k + (b % 8 < 4 ? 0 : 5), start: b, length: 0.9, velocity: 90 })
  for (const program of [0, 48]) {
    const start = performance.now()
    const audio = await renderInstrumentAudio({ program, drums: false, notes }, 120)
    const wall = (performance.now() - start) / 1000
    const seconds = (audio.channels[0]?.length ?? 0) / audio.sampleRate
    results.push({
      name: `instrument track re-render (${program === 0 ? 'piano' : 'strings'}, 256 notes)`,
      value: seconds / wall,
      unit: 'x real time',
      detail: `${seconds.toFixed(1)} s of audio in ${wall.toFixed(2)} s`,
    })
  }
  return results
}
