import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page, Route } from '@playwright/test'
import { encodeWav } from '../../workers/wav-encoding.ts'
import { SAMPLE_SONGS } from '../../src/catalogue/sample-songs.ts'

/**
 * Audio for player end-to-end tests. The shipped sample songs are used when they exist in public/
 * (the content engineer renders them); until then each sample URL is answered with a test tone
 * WAV generated here (a chord, distinct per song), so the real player, deck and master bus run.
 */
export const SAMPLES_SHIPPED = SAMPLE_SONGS.every((s) => existsSync(resolve('public', `.${s.audioUrl}`)))

export function testToneWav(seconds: number, baseHz: number, sampleRate = 22050): Buffer {
  const n = Math.round(seconds * sampleRate)
  const ch = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate
    const env = 0.6 + 0.4 * Math.sin(2 * Math.PI * 0.5 * t)
    ch[i] = env * 0.25 * (Math.sin(2 * Math.PI * baseHz * t) + 0.5 * Math.sin(2 * Math.PI * baseHz * 1.5 * t) + 0.3 * Math.sin(2 * Math.PI * baseHz * 2 * t))
  }
  return Buffer.from(encodeWav([ch], sampleRate, 'pcm16'))
}

export async function serveSampleAudio(page: Page, seconds = 20): Promise<void> {
  if (SAMPLES_SHIPPED) return
  for (const [i, song] of SAMPLE_SONGS.entries()) {
    const body = testToneWav(seconds, 220 + 55 * i)
    await page.route(`**${song.audioUrl}`, (route) => fulfillWithRanges(route, body, 'audio/wav'))
  }
}

/** Like the app's static server: byte ranges, so the media element can seek. */
export function fulfillWithRanges(route: Route, body: Buffer, contentType: string) {
  const headers = { 'Accept-Ranges': 'bytes', 'Cross-Origin-Resource-Policy': 'same-origin' }
  const m = /^bytes=(\d*)-(\d*)$/.exec(route.request().headers()['range'] ?? '')
  if (!m || (!m[1] && !m[2])) return route.fulfill({ status: 200, contentType, body, headers })
  const size = body.length
  const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]))
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1
  return route.fulfill({ status: 206, contentType, body: body.subarray(start, end + 1), headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}` } })
}

export async function masterLevel(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __cube?: { masterLevel?: () => number } }).__cube?.masterLevel?.() ?? 0)
}
