/**
 * Waveform peaks of a song for display: fetch → native decodeAudioData → copy the channels out in
 * small slices (so no main-thread task grows with the file length) → peaks worker → WaveSurfer's
 * [max, min] form. The last few results are cached by audio URL.
 *
 *   loadSongPeaks(audioUrl, buckets): Promise<SongPeaks>   { peaks: [max, min], duration (s) }
 */
import type { IAudioBuffer } from 'standardized-audio-context'
import { getAudioContext } from './audio-context.ts'
import { computePeaks, toWaveSurferPeaks } from './workers.ts'
import { resolveAudioUrl } from '../lib/user-audio-store.ts'

export interface SongPeaks {
  peaks: [Float32Array, Float32Array]
  duration: number
}

const SLICE = 1 << 18 // samples per copy step: ~1 MB, well under a millisecond
const CACHE_SIZE = 4
const cache = new Map<string, Promise<SongPeaks>>()

const yieldToMain = () => new Promise<void>((r) => setTimeout(r, 0))

export async function copyChannelsInSlices(buffer: Pick<IAudioBuffer, 'numberOfChannels' | 'length' | 'copyFromChannel'>): Promise<Float32Array<ArrayBuffer>[]> {
  const out: Float32Array<ArrayBuffer>[] = []
  for (let c = 0; c < buffer.numberOfChannels; c++) {
    const dest = new Float32Array(buffer.length)
    for (let start = 0; start < buffer.length; start += SLICE) {
      buffer.copyFromChannel(dest.subarray(start, Math.min(buffer.length, start + SLICE)), c, start)
      await yieldToMain()
    }
    out.push(dest)
  }
  return out
}

async function compute(audioUrl: string, buckets: number): Promise<SongPeaks> {
  const resolved = await resolveAudioUrl(audioUrl)
  let bytes: ArrayBuffer
  try {
    const res = await fetch(resolved.url)
    if (!res.ok) throw new Error(`the audio file could not be loaded (HTTP ${res.status})`)
    bytes = await res.arrayBuffer()
  } finally {
    resolved.release()
  }
  let decoded: IAudioBuffer
  try {
    decoded = await getAudioContext().decodeAudioData(bytes)
  } catch {
    throw new Error('the audio file is corrupt or in an unsupported format')
  }
  const channels = await copyChannelsInSlices(decoded)
  const peaks = await computePeaks(channels, buckets, { transfer: true })
  return { peaks: toWaveSurferPeaks(peaks), duration: decoded.duration }
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
