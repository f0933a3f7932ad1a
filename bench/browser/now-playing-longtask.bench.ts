/**
 * The longest main-thread task while a 10-minute song loads and its waveform draws, the way the
 * Now Playing page does it (player deck <audio> element + loadSongPeaks: fetch → native decode →
 * channels copied out in slices → peaks worker → WaveSurfer drawing precomputed peaks bound to the
 * deck's element). Baseline in the same run: WaveSurfer loading the same file by itself (its own
 * fetch, decode and peak computation on the main thread). Target: no task over 50 ms.
 *
 * The file is a 10-minute stereo 44.1 kHz 16-bit WAV (106 MB) made by our WAV worker and served
 * as a blob: URL; decoding a WAV is cheap, so the measurement isolates our own main-thread work.
 */
import WaveSurfer from 'wavesurfer.js'
import { encodeWav } from '../../src/engine/workers.ts'
import { loadSongPeaks } from '../../src/engine/song-peaks.ts'
import { getPlayerDeck } from '../../src/engine/player-deck.ts'
import type { BenchResult } from '../types.ts'

const SR = 44100
const SECONDS = 600

function music(frames: number, hz: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(frames)
  for (let i = 0; i < frames; i++) {
    const t = i / SR
    out[i] = 0.3 * Math.sin(2 * Math.PI * hz * t) * (0.5 + 0.5 * Math.sin(2 * Math.PI * 0.25 * t)) + 0.05 * Math.sin(2 * Math.PI * hz * 3.01 * t)
  }
  return out
}

async function observeLongTasks(work: () => Promise<void>): Promise<{ seconds: number; longest: number; count: number }> {
  await new Promise((r) => setTimeout(r, 50))
  const durations: number[] = []
  const t00 = performance.now()
  const po = new PerformanceObserver((list) => list.getEntries().forEach((e) => (durations.push(e.duration), console.error('LT', e.startTime.toFixed(0), e.duration.toFixed(0), t00))))
  po.observe({ type: 'longtask', buffered: false })
  const t0 = performance.now()
  await work()
  const seconds = (performance.now() - t0) / 1000
  // Let the last paint and any trailing task land before reading.
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))
  po.takeRecords().forEach((e) => durations.push(e.duration))
  po.disconnect()
  return { seconds, longest: durations.length ? Math.max(...durations) : 0, count: durations.length }
}

function container(): HTMLDivElement {
  const el = document.createElement('div')
  el.style.width = '1000px'
  document.body.append(el)
  return el
}

export async function run(): Promise<BenchResult[]> {
  const frames = SR * SECONDS
  const wav = await encodeWav([music(frames, 220), music(frames, 330)], SR, 'pcm16')
  const url = URL.createObjectURL(wav)
  await new Promise((r) => setTimeout(r, 300))

  // Ours: the Now Playing path.
  const oursEl = container()
  let ours = { seconds: 0, longest: 0, count: 0 }
  ours = await observeLongTasks(async () => {
    const deck = getPlayerDeck()
    const T = performance.now()
    const mark = (m: string) => console.error('MARK', m, performance.now().toFixed(0), T)
    await deck.load(url, 'Bench 10 min')
    mark('deck loaded')
    const { peaks, duration } = await loadSongPeaks(url, 2000)
    mark('peaks')
    const ws = WaveSurfer.create({ container: oursEl, media: deck.element, peaks, duration, height: 96, normalize: true, barWidth: 2, barGap: 1 })
    await new Promise<void>((r) => (ws.getDecodedData() ? r() : ws.once('ready', () => r())))
    mark('drawn')
    ws.destroy()
  })
  deck().stop()
  oursEl.remove()
  await new Promise((r) => setTimeout(r, 300))

  // Baseline: WaveSurfer by itself.
  const theirsEl = container()
  const theirs = await observeLongTasks(async () => {
    const ws = WaveSurfer.create({ container: theirsEl, url, height: 96, normalize: true, barWidth: 2, barGap: 1 })
    await new Promise<void>((r, j) => {
      ws.once('ready', () => r())
      ws.once('error', (e) => j(e))
    })
    ws.destroy()
  })
  theirsEl.remove()
  URL.revokeObjectURL(url)

  return [
    { name: 'Now Playing load+draw, 10 min stereo: longest task', value: ours.longest, unit: 'ms', detail: `${ours.count} tasks over 50 ms; ${ours.seconds.toFixed(2)} s total; target: none over 50 ms` },
    { name: 'baseline wavesurfer.js alone: longest task', value: theirs.longest, unit: 'ms', detail: `${theirs.count} tasks over 50 ms; ${theirs.seconds.toFixed(2)} s total` },
  ]
}

const deck = getPlayerDeck
