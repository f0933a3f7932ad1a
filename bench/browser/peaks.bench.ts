/**
 * Waveform peaks for a 10-minute stereo 48 kHz buffer (28.8 M samples per channel):
 *   (a) our peaks worker (src/engine/workers.ts computePeaks; min AND max per bucket, per channel,
 *       input buffers transferred, so the time includes the hand-over to the worker);
 *   (b) wavesurfer.js's own peak computation on the same data (WaveSurfer.exportPeaks, which the
 *       library runs on the main thread; one signed abs-max per bucket), the baseline.
 * Same bucket count (8000, wavesurfer's default maxLength), median of 3 runs each, same page.
 * Also the longest main-thread task during each (PerformanceObserver 'longtask').
 */
import WaveSurfer from 'wavesurfer.js'
import { computePeaks } from '../../src/engine/workers.ts'
import type { BenchResult } from '../types.ts'
import { noiseChannel } from './noise.ts'

const SR = 48000
const SECONDS = 600
const BUCKETS = 8000
const RUNS = 3

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function withLongestTask(work: () => Promise<unknown>): Promise<{ seconds: number; longestTaskMs: number }> {
  // Start in a fresh task so set-up work before the call is not counted against it.
  await new Promise((r) => setTimeout(r, 50))
  let longest = 0
  const po = new PerformanceObserver((list) => list.getEntries().forEach((e) => (longest = Math.max(longest, e.duration))))
  po.observe({ type: 'longtask', buffered: false })
  const t0 = performance.now()
  await work()
  const seconds = (performance.now() - t0) / 1000
  await new Promise((r) => setTimeout(r, 50))
  po.takeRecords().forEach((e) => (longest = Math.max(longest, e.duration)))
  po.disconnect()
  return { seconds, longestTaskMs: longest }
}

export async function run(): Promise<BenchResult[]> {
  const frames = SECONDS * SR
  const left = noiseChannel(frames, 0x9e3779b9, 1)
  const right = noiseChannel(frames, 0x7f4a7c15, 1)

  // Warm-up: worker start and JIT.
  await computePeaks([left.slice(0, SR), right.slice(0, SR)], 100, { transfer: true })

  const ours: { seconds: number; longestTaskMs: number }[] = []
  for (let i = 0; i < RUNS; i++) {
    const l = left.slice()
    const r = right.slice()
    ours.push(await withLongestTask(() => computePeaks([l, r], BUCKETS, { transfer: true })))
  }

  const container = document.createElement('div')
  container.style.width = '1000px'
  document.body.append(container)
  const ws = WaveSurfer.create({ container, height: 64 })
  await ws.load('', [left, right], SECONDS)
  ws.exportPeaks({ channels: 2, maxLength: 100 }) // warm-up
  const theirs: { seconds: number; longestTaskMs: number }[] = []
  for (let i = 0; i < RUNS; i++)
    theirs.push(await withLongestTask(async () => ws.exportPeaks({ channels: 2, maxLength: BUCKETS, precision: 10000 })))
  ws.destroy()
  container.remove()

  const a = median(ours.map((x) => x.seconds))
  const b = median(theirs.map((x) => x.seconds))
  return [
    {
      name: '(a) peaks worker, 10 min stereo 48 kHz',
      value: a * 1000,
      unit: 'ms',
      detail: `min+max x ${BUCKETS} buckets x 2 ch, median of ${RUNS}`,
    },
    {
      name: '    longest main-thread task during (a)',
      value: Math.max(...ours.map((x) => x.longestTaskMs)),
      unit: 'ms',
      detail: '0 = no task over 50 ms',
    },
    {
      name: '(b) wavesurfer.js exportPeaks, same buffer',
      value: b * 1000,
      unit: 'ms',
      detail: `abs-max x ${BUCKETS} buckets x 2 ch, main thread`,
    },
    { name: '    longest main-thread task during (b)', value: Math.max(...theirs.map((x) => x.longestTaskMs)), unit: 'ms' },
    { name: 'speed-up (b / a)', value: b / a, unit: 'x', detail: 'wavesurfer time / worker time, same run' },
  ]
}
