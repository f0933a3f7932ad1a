import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { precacheEntries } from './service-worker-plugin.ts'

// What the service worker precaches from a build: the app's code and small static files, never the
// pages (fetched fresh), the catalogue's audio, the GM bank or the fonts (too large; see the plugin).
const dir = mkdtempSync(join(tmpdir(), 'cube-precache-'))
const put = (file: string, bytes = file) => {
  mkdirSync(dirname(join(dir, file)), { recursive: true })
  writeFileSync(join(dir, file), bytes)
}
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('precacheEntries', () => {
  it('lists code, styles, icons, covers and the manifest; leaves out pages, audio, the GM bank and fonts', () => {
    for (const file of [
      'index.html',
      'sw.js',
      '.vite/manifest.json',
      'assets/index-CEakHVlt.js',
      'assets/channel-strip.worklet-Ab_c-123.js',
      'assets/index-DcSfqWbN.css',
      'assets/noto-sans-sc-119-400-normal-C7mqcMDM.woff2',
      'assets/noto-sans-sc-119-400-normal-wKcTGncR.woff',
      'audio/samples/neon-drift.mp3',
      'soundfonts/GeneralUserGS.sf3',
      'soundfonts/LICENSE.md',
      'images/covers/neon-drift.svg',
      'icons/icon-192.png',
      'favicon.svg',
      'manifest.webmanifest',
    ])
      put(file)
    expect(precacheEntries(dir).map((e) => e.url)).toEqual([
      '/assets/channel-strip.worklet-Ab_c-123.js',
      '/assets/index-CEakHVlt.js',
      '/assets/index-DcSfqWbN.css',
      '/favicon.svg',
      '/icons/icon-192.png',
      '/images/covers/neon-drift.svg',
      '/manifest.webmanifest',
    ])
  })

  it('a hashed file name is its own revision; any other file is revised by its bytes', () => {
    const entries = new Map(precacheEntries(dir).map((e) => [e.url, e.revision]))
    expect(entries.get('/assets/index-CEakHVlt.js')).toBeNull()
    const before = entries.get('/manifest.webmanifest')
    expect(before).toMatch(/^[0-9a-f]{16}$/)
    put('manifest.webmanifest', '{"name":"changed"}')
    expect(new Map(precacheEntries(dir).map((e) => [e.url, e.revision])).get('/manifest.webmanifest')).not.toBe(before)
  })
})
