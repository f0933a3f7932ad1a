/**
 * Waveform peaks of a song for display: streamed fetch → peaksFromBytes (song-peaks-decoder.ts:
 * MP3 decoded with WebCodecs in a worker, else frame-aligned ~20 s native decodes, else one native
 * decode for other formats; no main-thread task grows with the length of an MP3)
 * → WaveSurfer's [max, min] form. The last few results are cached by audio URL.
 *
 *   loadSongPeaks(audioUrl, buckets): Promise<SongPeaks>   { peaks: [max, min], duration (s) }
 */
import { toWaveSurferPeaks } from './workers.ts'
import { peaksFromBytes } from './song-peaks-decoder.ts'
import { resolveAudioUrl } from '../lib/user-audio-store.ts'

export { WAVEFORM_DECODE_RATE } from './song-peaks-decoder.ts'

export interface SongPeaks {
  peaks: [Float32Array, Float32Array]
  duration: number
}

const CACHE_SIZE = 4
const cache = new Map<string, Promise<SongPeaks>>()

const YIELD_AFTER_MS = 10

/** A new task: the event loop renders and runs pending input and timers in between. */
function yieldToEventLoop(): Promise<void> {
  const sched = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (sched?.yield) return sched.yield()
  return new Promise((r) => setTimeout(r, 0))
}

/**
 * The body read chunk by chunk into one buffer: Response.arrayBuffer() assembles a large file in a
 * single main-thread task (~0.2 s for 100 MB here); streamed, each step copies one network chunk.
 */
export async function readBody(res: Response): Promise<ArrayBuffer> {
  if (!res.body) return res.arrayBuffer()
  const declared = Number(res.headers.get('Content-Length'))
  let buf = new Uint8Array(Number.isSafeInteger(declared) && declared > 0 ? declared : 1 << 20)
  let used = 0
  const reader = res.body.getReader()
  let taskStart = performance.now()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    // Chunks already buffered (a blob: or cached file) resolve as microtasks, so without this the
    // whole read could run as one task: give the event loop a turn every few milliseconds.
    if (performance.now() - taskStart > YIELD_AFTER_MS) {
      await yieldToEventLoop()
      taskStart = performance.now()
    }
    if (used + value.length > buf.length) {
      const grown = new Uint8Array(Math.max(buf.length * 2, used + value.length))
      grown.set(buf.subarray(0, used))
      buf = grown
    }
    buf.set(value, used)
    used += value.length
  }
  return used === buf.length ? buf.buffer : buf.buffer.slice(0, used)
}

async function compute(audioUrl: string, buckets: number): Promise<SongPeaks> {
  const resolved = await resolveAudioUrl(audioUrl)
  let bytes: ArrayBuffer
  try {
    const res = await fetch(resolved.url)
    if (!res.ok) throw new Error(`the audio file could not be loaded (HTTP ${res.status})`)
    bytes = await readBody(res)
  } finally {
    resolved.release()
  }
  const { peaks, duration } = await peaksFromBytes(bytes, buckets)
  return { peaks: toWaveSurferPeaks(peaks), duration }
}

export function loadSongPeaks(audioUrl: string, buckets: number): Promise<SongPeaks> {
  const key = `${buckets}|${audioUrl}`
  const hit = cache.get(key)
  if (hit) return hit
  const p = compute(audioUrl, buckets)
  cache.set(key, p)
  p.catch(() => cache.delete(key))
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!)
  return p
}
