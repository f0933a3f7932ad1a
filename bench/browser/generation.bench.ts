/**
 * AI Generator: time to compose and render a 30 s piece with the app's own code (composer +
 * Tone.js offline renderer, as in the Generated Track flow), in times real time, for several
 * moods/genres (their instrumentation differs in cost). Baseline in the same run: a bare
 * OfflineAudioContext rendering one oscillator for the same length (what this machine's offline
 * audio costs with nothing in the graph), so the ratio is comparable across runs. Before/after in
 * the same run: the same pieces with every part in one graph (`engine: 'one-graph'`, the render
 * before the parts got contexts of their own; the same samples).
 */
import { compose, type Genre, type Mood } from '../../workers/composer/index.ts'
import { renderScore } from '../../src/engine/score-renderer.ts'
import type { BenchResult } from '../types.ts'

const STYLES: [Mood, Genre][] = [
  ['upbeat', 'electronic'],
  ['energetic', 'metal'],
  ['sad', 'jazz'],
  ['chill', 'ambient'],
  ['epic', 'classical'],
]

async function baseline(seconds: number): Promise<number> {
  const ctx = new OfflineAudioContext(2, Math.ceil(seconds * 44100), 44100)
  const osc = ctx.createOscillator()
  osc.connect(ctx.destination)
  osc.start()
  const t0 = performance.now()
  await ctx.startRendering()
  return (performance.now() - t0) / 1000
}

export async function run(): Promise<BenchResult[]> {
  // Warm-up: loads tone and JIT-compiles the composer and renderer.
  await renderScore(compose({ description: 'warm up', minDurationSeconds: 8 }))
  const results: BenchResult[] = []
  const ratios: number[] = []
  let audioSeconds = 0
  for (const [mood, genre] of STYLES) {
    const t0 = performance.now()
    const score = compose({ description: 'benchmark piece: a city at night', mood, genre })
    const composeMs = performance.now() - t0
    const buffer = await renderScore(score)
    const wall = (performance.now() - t0) / 1000
    const ratio = buffer.duration / wall
    ratios.push(ratio)
    audioSeconds += buffer.duration
    results.push({
      name: `generate ${mood} ${genre}`,
      value: ratio,
      unit: 'x real time',
      detail: `${buffer.duration.toFixed(1)} s of audio in ${wall.toFixed(2)} s (compose ${composeMs.toFixed(1)} ms, ${score.bpm} BPM)`,
    })
  }
  const oneGraph: number[] = []
  for (const [mood, genre] of STYLES) {
    const t0 = performance.now()
    const buffer = await renderScore(compose({ description: 'benchmark piece: a city at night', mood, genre }), { engine: 'one-graph' })
    oneGraph.push(buffer.duration / ((performance.now() - t0) / 1000))
  }
  oneGraph.sort((a, b) => a - b)
  ratios.sort((a, b) => a - b)
  const median = ratios[Math.floor(ratios.length / 2)]!
  const oneGraphMedian = oneGraph[Math.floor(oneGraph.length / 2)]!
  const base = baseline(audioSeconds / STYLES.length)
  const baseWall = await base
  const baseRatio = audioSeconds / STYLES.length / baseWall
  results.push({
    name: 'generate median',
    value: median,
    unit: 'x real time',
    detail: `slowest ${ratios[0]!.toFixed(1)}x; a 30 s piece takes about ${(30 / median).toFixed(1)} s; target >= 20x`,
  })
  results.push({
    name: 'before: every part in one graph, median',
    value: oneGraphMedian,
    unit: 'x real time',
    detail: `slowest ${oneGraph[0]!.toFixed(1)}x; the parts in their own contexts: ${(median / oneGraphMedian).toFixed(2)}x faster`,
  })
  results.push({
    name: 'baseline: bare offline context, 1 oscillator',
    value: baseRatio,
    unit: 'x real time',
    detail: 'same length, same run',
  })
  results.push({
    name: 'generation cost vs bare offline render',
    value: baseRatio / median,
    unit: 'x',
    detail: 'how many times the bare render the generator takes',
  })
  return results
}
