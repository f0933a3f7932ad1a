import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { encodeWav } from '../../workers/wav-encoding.ts'
import { SAMPLE_SONGS } from '../../src/lib/catalogue/sample-songs.ts'

/**
 * Audio for player end-to-end tests. The player specs play the shipped sample songs
 * (public/audio/samples/*.mp3, rendered by the project's own generator); testToneWav makes the
 * audio for user tracks stored in IndexedDB.
 */
export const SAMPLES_SHIPPED = SAMPLE_SONGS.every((s) => existsSync(resolve('public', `.${s.audioUrl}`)))

export function testToneWav(seconds: number, baseHz: number, sampleRate = 22050): Buffer {
  const n = Math.round(seconds * sampleRate)
  const ch = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate
    const env = 0.6 + 0.4 * Math.sin(2 * Math.PI * 0.5 * t)
    ch[i] =
      env *
      0.25 *
      (Math.sin(2 * Math.PI * baseHz * t) + 0.5 * Math.sin(2 * Math.PI * baseHz * 1.5 * t) + 0.3 * Math.sin(2 * Math.PI * baseHz * 2 * t))
  }
  return Buffer.from(encodeWav([ch], sampleRate, 'pcm16'))
}

/** Fails fast with a clear message instead of a confusing playback timeout. */
export function requireShippedSamples(): void {
  if (!SAMPLES_SHIPPED)
    throw new Error('public/audio/samples/*.mp3 are missing: render them with the sample generator before running the player specs')
}

export async function masterLevel(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __cube?: { masterLevel?: () => number } }).__cube?.masterLevel?.() ?? 0)
}

/** Stores audio in the page's IndexedDB as the app keeps user tracks ('cube-user-audio', key = id). */
export async function putUserAudio(page: Page, entries: { id: string; bytes: number[]; type: string }[]): Promise<void> {
  await page.evaluate(async (list) => {
    const db = await new Promise<IDBDatabase>((ok, fail) => {
      const req = indexedDB.open('cube-user-audio', 1)
      req.onupgradeneeded = () => req.result.createObjectStore('audio')
      req.onsuccess = () => ok(req.result)
      req.onerror = () => fail(req.error)
    })
    await new Promise<void>((ok, fail) => {
      const tx = db.transaction('audio', 'readwrite')
      for (const e of list) tx.objectStore('audio').put(new Blob([new Uint8Array(e.bytes)], { type: e.type }), e.id)
      tx.oncomplete = () => ok()
      tx.onerror = () => fail(tx.error)
    })
    db.close()
  }, entries)
}
