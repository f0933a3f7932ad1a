import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ISOLATION_HEADERS } from '../../src/config/isolation-headers.ts'
import { staticFiles } from '../../supabase/local/core/static-files.ts'

// The built app as `npm start` serves it (sirv): the SPA fallback, cross-origin isolation headers
// on every answer, caching, content types, byte ranges, and nothing outside the build folder.

const INDEX = '<!doctype html><title>CUBE</title>'
const AUDIO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251))

let parent: string
let dist: string
let server: Server
let port: number

/** A request exactly as written: fetch would resolve `..` before sending. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

function expectIsolated(headers: Record<string, string | string[] | undefined>) {
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) expect(headers[name.toLowerCase()], name).toBe(value)
}

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'cube-static-'))
  dist = join(parent, 'dist')
  mkdirSync(join(dist, 'assets'), { recursive: true })
  mkdirSync(join(dist, 'audio'))
  // A sibling whose name starts like the build folder's: a prefix check alone would let it through.
  mkdirSync(join(parent, 'dist-private'))
  writeFileSync(join(parent, 'dist-private', 'secret.txt'), 'secret')
  writeFileSync(join(parent, 'package.json'), '{"name":"not-for-you"}')
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("app")')
  writeFileSync(join(dist, 'assets', 'channel-strip-processor-def456.js'), 'registerProcessor("x", class {})')
  writeFileSync(join(dist, 'assets', 'index-abc123.css'), 'body{}')
  writeFileSync(join(dist, 'audio', 'neon-drift.mp3'), AUDIO)
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>')
  server = createServer((req, res) => void staticFiles(dist, ISOLATION_HEADERS)(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  rmSync(parent, { recursive: true, force: true })
})

describe('static files (sirv)', () => {
  it('answers 503 with the isolation headers until the app is built', async () => {
    const r = await get('/')
    expect(r.status).toBe(503)
    expect(r.body.toString()).toMatch(/App not built/)
    expectIsolated(r.headers)
    writeFileSync(join(dist, 'index.html'), INDEX)
  })

  it('serves index.html for / and for every client-side route, revalidated, with the isolation headers', async () => {
    for (const path of ['/', '/studio', '/studio/projects/abc?x=1', '/account/', '/assets/missing-999.js']) {
      const r = await get(path)
      expect(r.status, path).toBe(200)
      expect(r.body.toString(), path).toBe(INDEX)
      expect(r.headers['content-type'], path).toBe('text/html; charset=utf-8')
      expect(r.headers['cache-control'], path).toBe('no-cache')
      expectIsolated(r.headers)
    }
  })

  it('serves hashed assets as JavaScript and CSS, cached for a year; other files revalidated', async () => {
    for (const path of ['/assets/index-abc123.js', '/assets/channel-strip-processor-def456.js']) {
      const r = await get(path)
      expect(r.status).toBe(200)
      expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expectIsolated(r.headers)
    }
    expect((await get('/assets/index-abc123.css')).headers['content-type']).toBe('text/css; charset=utf-8')
    const svg = await get('/favicon.svg')
    expect(svg.headers['content-type']).toBe('image/svg+xml')
    expect(svg.headers['cache-control']).toBe('no-cache')
    const head = await get('/assets/index-abc123.js', {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe('18')
    expect(head.body.length).toBe(0)
  })

  it('never serves anything outside the build folder', async () => {
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/assets/../../package.json',
      '/..%2fpackage.json',
      '/../dist-private/secret.txt',
      '/%2e%2e/dist-private/secret.txt',
      '/.%2e/.%2e/etc/passwd',
    ]) {
      const r = await get(path)
      expect(r.body.toString(), path).not.toMatch(/not-for-you|secret|root:/)
      expect([200, 400], path).toContain(r.status)
      expectIsolated(r.headers)
    }
    expect((await get('/%E0%A4%A')).status).toBe(400)
  })

  it('byte ranges: explicit, open-ended, suffix and unsatisfiable', async () => {
    const part = await get('/audio/neon-drift.mp3', { Range: 'bytes=100-199' })
    expect(part.status).toBe(206)
    expect(part.headers['content-type']).toBe('audio/mpeg')
    expect(part.headers['content-range']).toBe('bytes 100-199/1000')
    expect(part.body).toEqual(AUDIO.subarray(100, 200))
    expectIsolated(part.headers)
    const open = await get('/audio/neon-drift.mp3', { Range: 'bytes=900-' })
    expect(open.body).toEqual(AUDIO.subarray(900))
    const suffix = await get('/audio/neon-drift.mp3', { Range: 'bytes=-10' })
    expect(suffix.headers['content-range']).toBe('bytes 990-999/1000')
    expect(suffix.body).toEqual(AUDIO.subarray(990))
    const beyond = await get('/audio/neon-drift.mp3', { Range: 'bytes=5000-' })
    expect(beyond.status).toBe(416)
    expect(beyond.headers['content-range']).toBe('bytes */1000')
    expectIsolated(beyond.headers)
    const unreadable = await get('/audio/neon-drift.mp3', { Range: 'bytes=1-2,5-6' })
    expect(unreadable.status).toBe(200)
    expect(unreadable.body).toEqual(AUDIO)
    expect(unreadable.headers['accept-ranges']).toBe('bytes')
  })

  it('picks up a new build without a restart', async () => {
    writeFileSync(join(dist, 'assets', 'index-new789.js'), 'console.log("new")')
    writeFileSync(join(dist, 'index.html'), `${INDEX}<!-- new -->`)
    const later = new Date(Date.now() + 5000)
    utimesSync(join(dist, 'index.html'), later, later)
    expect((await get('/assets/index-new789.js')).body.toString()).toBe('console.log("new")')
    expect((await get('/')).body.toString()).toBe(`${INDEX}<!-- new -->`)
  })
})
