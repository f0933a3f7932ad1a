/**
 * The longest main-thread task while a 10-minute song loads and its waveform draws, the way the
 * Now Playing page does it: the player deck's <audio> element loads the file, and loadSongPeaks
 * fetches it (streamed read) → native decodeAudioData at 8 kHz → channels streamed to the peaks
 * worker in 1 MB slices → WaveSurfer draws the precomputed peaks bound to the deck's element.
 * Baseline in the same run: WaveSurfer loading the same file by itself (its own fetch, decode and
 * peak computation). Target: no task over 50 ms.
 *
 * The file: the shipped sample songs (MP3) concatenated frame by frame up to 10 minutes when they
 * exist in public/audio/samples; otherwise a 10-minute stereo 44.1 kHz 16-bit WAV made by our WAV
 * worker (106 MB, ten times an MP3 of that length: a harsher case). Served as a blob: URL.
 */
import WaveSurfer from 'wavesurfer.js'
import { encodeWav } from '../../src/engine/workers.ts'
import { loadSongPeaks } from '../../src/engine/song-peaks.ts'
import { getPlayerDeck } from '../../src/engine/player-deck.ts'
import type { BenchResult } from '../types.ts'

const SR = 44100
const SECONDS = 600

const SAMPLE_MP3S = import.meta.glob('../../public/audio/samples/*.mp3', { query: '?url', import: 'default', eager: true }) as Record<string, string>

function tone(frames: number, hz: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(frames)
  for (let i = 0; i < frames; i++) {
    const t = i / SR
    out[i] = 0.3 * Math.sin(2 * Math.PI * hz * t) * (0.5 + 0.5 * Math.sin(2 * Math.PI * 0.25 * t)) + 0.05 * Math.sin(2 * Math.PI * hz * 3.01 * t)
  }
  return out
}

/** MP3 is a sequence of self-contained frames, so whole files concatenate into a longer valid stream. */
async function tenMinuteFile(): Promise<{ blob: Blob; kind: string }> {
  const urls = Object.values(SAMPLE_MP3S)
  if (urls.length > 0) {
    const parts: ArrayBuffer[] = []
    const durations: number[] = []
    for (const u of urls) {
      const bytes = await (await fetch(u)).arrayBuffer()
      const probe = document.createElement('audio')
      probe.src = u
      await new Promise((r) => probe.addEventListener('loadedmetadata', r, { once: true }))
      parts.push(bytes)
      durations.push(probe.duration)
    }
    const blobParts: ArrayBuffer[] = []
    let total = 0
    for (let i = 0; total < SECONDS; i++) {
      blobParts.push(parts[i % parts.length]!)
      total += durations[i % parts.length]!
    }
    const blob = new Blob(blobParts, { type: 'audio/mpeg' })
    return { blob, kind: `${Math.round(total)} s MP3 from the shipped samples, ${(blob.size / 1e6).toFixed(1)} MB` }
  }
  const frames = SR * SECONDS
  const blob = await encodeWav([tone(frames, 220), tone(frames, 330)], SR, 'pcm16')
  return { blob, kind: `600 s stereo 44.1 kHz 16-bit WAV, ${(blob.size / 1e6).toFixed(0)} MB (samples not shipped yet)` }
}

async function observeLongTasks(work: () => Promise<void>): Promise<{ seconds: number; longest: number; count: number }> {
  await new Promise((r) => setTimeout(r, 300))
  const durations: number[] = []
  const po = new PerformanceObserver((list) => list.getEntries().forEach((e) => durations.push(e.duration)))
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

const waitReady = (ws: WaveSurfer) =>
  new Promise<void>((resolve, reject) => {
    if (ws.getDecodedData()) return resolve()
    ws.once('ready', () => resolve())
    ws.once('error', (e) => reject(e))
  })

export async function run(): Promise<BenchResult[]> {
  // Noise floor: the same observation over an idle page (a loaded shared machine shows long tasks
  // even when the page does nothing).
  const idle = await observeLongTasks(() => new Promise((r) => setTimeout(r, 2000)))
  const { blob, kind } = await tenMinuteFile()
  const url = URL.createObjectURL(blob)

  const oursEl = container()
  const deck = getPlayerDeck()
  const ours = await observeLongTasks(async () => {
    await deck.load(url, 'Bench 10 min')
    const { peaks, duration } = await loadSongPeaks(url, 2000)
    const ws = WaveSurfer.create({ container: oursEl, media: deck.element, peaks, duration, height: 96, normalize: true, barWidth: 2, barGap: 1 })
    await waitReady(ws)
    ws.destroy()
  })
  deck.stop()
  oursEl.remove()

  const theirsEl = container()
  const theirs = await observeLongTasks(async () => {
    const ws = WaveSurfer.create({ container: theirsEl, url, height: 96, normalize: true, barWidth: 2, barGap: 1 })
    await waitReady(ws)
    ws.destroy()
  })
  theirsEl.remove()
  URL.revokeObjectURL(url)

  return [
    { name: 'Now Playing load+draw, 10 min: longest main-thread task', value: ours.longest, unit: 'ms', detail: `${ours.count} tasks over 50 ms, ${ours.seconds.toFixed(2)} s to drawn; ${kind}; target: none over 50 ms` },
    { name: 'baseline wavesurfer.js alone: longest task', value: theirs.longest, unit: 'ms', detail: `${theirs.count} tasks over 50 ms, ${theirs.seconds.toFixed(2)} s to drawn` },
    { name: 'noise floor: idle page for 2 s, longest task', value: idle.longest, unit: 'ms', detail: `${idle.count} tasks over 50 ms` },
  ]
}
