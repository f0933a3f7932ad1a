/**
 * The longest main-thread task while a 10-minute song loads and its waveform draws, the way the
 * Now Playing page does it: the player deck's <audio> element loads the file, and loadSongPeaks
 * fetches it (streamed read) → the decode worker (an MP3 is decoded there with WebCodecs'
 * AudioDecoder and reduced to peaks; src/engine/song-peaks-decoder.ts) → WaveSurfer draws the
 * precomputed peaks bound to the deck's element. Also measured: the fallback for browsers without
 * AudioDecoder 'mp3' (frame-split ~20 s native decodeAudioData chunks), forced with webCodecs: false.
 * Baseline in the same run: WaveSurfer loading the same file by itself (its own fetch, decode and
 * peak computation). Target: no task over 50 ms.
 *
 * The file: the shipped sample songs (MP3) concatenated frame by frame up to 10 minutes when they
 * exist in public/audio/samples; otherwise a 10-minute stereo 44.1 kHz 16-bit WAV made by our WAV
 * worker (106 MB, ten times an MP3 of that length: a harsher case). Served as a blob: URL.
 */
import WaveSurfer from 'wavesurfer.js'
import { encodeWav } from '../../src/engine/workers.ts'
import { loadSongPeaks, readBody } from '../../src/engine/song-peaks.ts'
import { peaksFromBytes } from '../../src/engine/song-peaks-decoder.ts'
import { toWaveSurferPeaks, type ChannelPeaks } from '../../workers/peaks.ts'
import { computeBufferPeaks } from '../../src/engine/workers.ts'
import { OfflineAudioContext } from 'standardized-audio-context'
import { getPlayerDeck } from '../../src/engine/player-deck.ts'
import type { BenchResult } from '../types.ts'

const SR = 44100
const SECONDS = 600
/** The stress case: six times longer, to show which main-thread costs grow with the length of the file. */
const STRESS_SECONDS = 3600

const SAMPLE_MP3S = import.meta.glob('../../public/audio/samples/*.mp3', { query: '?url', import: 'default', eager: true }) as Record<
  string,
  string
>

function tone(frames: number, hz: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(frames)
  for (let i = 0; i < frames; i++) {
    const t = i / SR
    out[i] =
      0.3 * Math.sin(2 * Math.PI * hz * t) * (0.5 + 0.5 * Math.sin(2 * Math.PI * 0.25 * t)) + 0.05 * Math.sin(2 * Math.PI * hz * 3.01 * t)
  }
  return out
}

/** MP3 is a sequence of self-contained frames, so whole files concatenate into a longer valid stream. */
async function longFile(seconds: number): Promise<{ blob: Blob; kind: string }> {
  const urls = Object.values(SAMPLE_MP3S)
  if (urls.length > 0) {
    const parts: ArrayBuffer[] = []
    const durations: number[] = []
    for (const u of urls) {
      const bytes = await readBody(await fetch(u))
      const probe = document.createElement('audio')
      probe.src = u
      await new Promise((r) => probe.addEventListener('loadedmetadata', r, { once: true }))
      parts.push(bytes)
      durations.push(probe.duration)
    }
    const blobParts: ArrayBuffer[] = []
    let total = 0
    for (let i = 0; total < seconds; i++) {
      blobParts.push(parts[i % parts.length]!)
      total += durations[i % parts.length]!
    }
    const blob = new Blob(blobParts, { type: 'audio/mpeg' })
    return { blob, kind: `${Math.round(total)} s MP3 from the shipped samples, ${(blob.size / 1e6).toFixed(1)} MB` }
  }
  const frames = SR * seconds
  const blob = await encodeWav([tone(frames, 220), tone(frames, 330)], SR, 'pcm16')
  return { blob, kind: `${seconds} s stereo 44.1 kHz 16-bit WAV, ${(blob.size / 1e6).toFixed(0)} MB (samples not shipped yet)` }
}

/** Phase marks (time, name): the report says in which phase the longest task started. */
let marks: [number, string][] = []
const mark = (name: string) => marks.push([performance.now(), name])

async function observeLongTasks(work: () => Promise<void>): Promise<{ seconds: number; longest: number; count: number; phase: string }> {
  await new Promise((r) => setTimeout(r, 300))
  const durations: number[] = []
  const entries: PerformanceEntry[] = []
  marks = [[performance.now(), 'start']]
  const po = new PerformanceObserver((list) => list.getEntries().forEach((e) => (durations.push(e.duration), entries.push(e))))
  po.observe({ type: 'longtask', buffered: false })
  const t0 = performance.now()
  await work()
  const seconds = (performance.now() - t0) / 1000
  // Let the last paint and any trailing task land before reading.
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))
  po.takeRecords().forEach((e) => (durations.push(e.duration), entries.push(e)))
  po.disconnect()
  const worst = entries.reduce<PerformanceEntry | null>((a, e) => (!a || e.duration > a.duration ? e : a), null)
  const phase = worst ? (marks.filter(([t]) => t <= worst.startTime).at(-1)?.[1] ?? 'start') : ''
  return { seconds, longest: durations.length ? Math.max(...durations) : 0, count: durations.length, phase }
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
  // Busy noise floor: 2 s of 5 ms tasks (each far under 50 ms of work). Any that reads over 50 ms was
  // stretched by the OS giving the core to other processes: how much this run's load inflates tasks.
  const busy = await observeLongTasks(async () => {
    const end = performance.now() + 2000
    while (performance.now() < end) {
      const t = performance.now()
      while (performance.now() - t < 5) {
        // busy: one 5 ms task
      }
      await new Promise((r) => setTimeout(r, 0))
    }
  })
  const { blob, kind } = await longFile(SECONDS)
  const url = URL.createObjectURL(blob)

  const oursEl = container()
  const deck = getPlayerDeck()
  const ours = await observeLongTasks(async () => {
    mark('deck load')
    await deck.load(url, 'Bench 10 min')
    mark('loadSongPeaks')
    const { peaks, duration } = await loadSongPeaks(url, 2000)
    mark('draw')
    const ws = WaveSurfer.create({
      container: oursEl,
      media: deck.element,
      peaks,
      duration,
      height: 96,
      normalize: true,
      barWidth: 2,
      barGap: 1,
    })
    await waitReady(ws)
    ws.destroy()
  })
  deck.stop()
  oursEl.remove()

  /** Draws precomputed peaks the way Now Playing does (no media: this only measures the draw). */
  const draw = async (peaks: ChannelPeaks[], duration: number) => {
    const el = container()
    const ws = WaveSurfer.create({
      container: el,
      peaks: toWaveSurferPeaks(peaks),
      duration,
      height: 96,
      normalize: true,
      barWidth: 2,
      barGap: 1,
    })
    await new Promise((r) => requestAnimationFrame(r))
    ws.destroy()
    el.remove()
  }
  // Each reads the body streamed as loadSongPeaks does (Response.arrayBuffer() of a 59 MB file is
  // itself one long main-thread task).
  const viaSplit = async (u: string) => {
    mark('fetch+read')
    const bytes = await readBody(await fetch(u))
    mark('decode')
    const decoded = await peaksFromBytes(bytes, 2000, { webCodecs: false })
    mark('draw')
    if (decoded.via !== 'split') throw new Error(`expected the split path, got ${decoded.via}`)
    await draw(decoded.peaks, decoded.duration)
  }
  const viaWorker = async (u: string) => {
    mark('fetch+read')
    const bytes = await readBody(await fetch(u))
    mark('decode')
    const decoded = await peaksFromBytes(bytes, 2000)
    mark('draw')
    if (decoded.via !== 'webcodecs') throw new Error(`expected the WebCodecs path, got ${decoded.via}`)
    await draw(decoded.peaks, decoded.duration)
  }
  // Before: the whole file through one native decodeAudioData at 4 kHz (Chrome materialises the
  // decoded AudioBuffer on the main thread), then its channels to the peaks worker.
  const viaWholeDecode = async (u: string) => {
    mark('fetch+read')
    const bytes = await readBody(await fetch(u))
    mark('decode')
    const decoded = await new OfflineAudioContext({ numberOfChannels: 1, length: 1, sampleRate: 4000 }).decodeAudioData(bytes)
    mark('peaks+draw')
    await draw(await computeBufferPeaks(decoded, 2000), decoded.duration)
  }
  const split = await observeLongTasks(() => viaSplit(url))
  const before = await observeLongTasks(() => viaWholeDecode(url))

  const stressFile = await longFile(STRESS_SECONDS)
  const stressUrl = URL.createObjectURL(stressFile.blob)
  const stressOurs = await observeLongTasks(() => viaWorker(stressUrl))
  const stressSplit = await observeLongTasks(() => viaSplit(stressUrl))
  const stressBefore = await observeLongTasks(() => viaWholeDecode(stressUrl))
  URL.revokeObjectURL(stressUrl)

  const theirsEl = container()
  const theirs = await observeLongTasks(async () => {
    const ws = WaveSurfer.create({ container: theirsEl, url, height: 96, normalize: true, barWidth: 2, barGap: 1 })
    await waitReady(ws)
    ws.destroy()
  })
  theirsEl.remove()
  URL.revokeObjectURL(url)

  const row = (name: string, r: { longest: number; count: number; seconds: number; phase: string }, extra = '') =>
    ({
      name,
      value: r.longest,
      unit: 'ms',
      detail: `${r.count} tasks over 50 ms${r.phase ? ` (longest in '${r.phase}')` : ''}, ${r.seconds.toFixed(2)} s to drawn${extra}`,
    }) satisfies BenchResult
  return [
    row(
      'Now Playing load+draw, 10 min: longest main-thread task',
      ours,
      `; ${kind}; WebCodecs in the decode worker; target: none over 50 ms`,
    ),
    row('10 min, fallback without WebCodecs (frame-split decodes)', split),
    row('10 min, before: one whole-file decodeAudioData at 4 kHz', before),
    row('60 min stress, WebCodecs in the decode worker', stressOurs, `; ${stressFile.kind}`),
    row('60 min stress, fallback (frame-split decodes)', stressSplit),
    row('60 min stress, before: whole-file decodeAudioData at 4 kHz', stressBefore),
    row('baseline wavesurfer.js alone (10 min)', theirs),
    { name: 'noise floor: idle page for 2 s, longest task', value: idle.longest, unit: 'ms', detail: `${idle.count} tasks over 50 ms` },
    {
      name: 'busy noise floor: 2 s of 5 ms tasks, longest task',
      value: busy.longest,
      unit: 'ms',
      detail: `${busy.count} tasks over 50 ms: OS preemption under this run's load`,
    },
  ]
}
