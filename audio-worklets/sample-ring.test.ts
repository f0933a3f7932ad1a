import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { SampleRing } from './sample-ring.ts'

/** Planar channels whose samples count up from `from` (channel c carries the count times c + 1). */
function ramp(channels: number, frames: number, from = 0): Float32Array[] {
  return Array.from({ length: channels }, (_, c) => Float32Array.from({ length: frames }, (_, i) => (from + i) * (c + 1)))
}

/** tsx's ESM loader API as a file URL, so a worker thread can import TypeScript. */
function tsxEsmApi(): string {
  // require.resolve picks the package's CommonJS build; the ESM build sits beside it.
  return pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
}

function planes(channels: number, frames: number): Float32Array[] {
  return Array.from({ length: channels }, () => new Float32Array(frames))
}

describe('SampleRing', () => {
  it('holds exactly its capacity: empty at start, full after capacity frames, the rest dropped and counted', () => {
    const ring = SampleRing.create(2, 100)
    expect(ring.capacity).toBe(100)
    expect(ring.channels).toBe(2)
    expect([ring.availableRead(), ring.availableWrite()]).toEqual([0, 100])
    expect(ring.write(ramp(2, 130), 130)).toBe(100)
    expect([ring.availableRead(), ring.availableWrite(), ring.dropped]).toEqual([100, 0, 30])
    expect(ring.write(ramp(2, 5), 5)).toBe(0)
    expect(ring.dropped).toBe(35)
    const out = planes(2, 130)
    expect(ring.read(out, 130)).toBe(100)
    expect(Array.from(out[0]!.subarray(0, 100))).toEqual(Array.from(ramp(1, 100)[0]!))
    expect(Array.from(out[1]!.subarray(0, 100))).toEqual(Array.from(ramp(2, 100)[1]!))
    expect([ring.availableRead(), ring.availableWrite()]).toEqual([0, 100])
    expect(ring.read(out, 10)).toBe(0)
  })

  it('wraps around the end of its storage sample-exact, for every split point', () => {
    const cap = 16
    for (let start = 0; start <= cap; start++) {
      const ring = SampleRing.create(2, cap)
      // Move both indices to `start`, then write a block that crosses the end of the planes.
      ring.write(ramp(2, start), start)
      ring.read(planes(2, start), start)
      const block = ramp(2, cap, 1000)
      expect(ring.write(block, cap)).toBe(cap)
      const out = planes(2, cap)
      expect(ring.read(out, cap)).toBe(cap)
      expect(out.map((c) => Array.from(c))).toEqual(block.map((c) => Array.from(c)))
    }
  })

  it('partial reads and writes keep the stream in order, with offsets on both sides', () => {
    const ring = SampleRing.create(1, 37)
    const source = ramp(1, 5000)[0]!
    const got = new Float32Array(5000)
    let written = 0
    let read = 0
    let step = 0
    while (read < 5000) {
      step++
      // Uneven sizes so every index crosses the wrap at a different phase.
      const w = Math.min(5000 - written, (step * 7) % 23, ring.availableWrite())
      written += ring.write([source], w, written)
      read += ring.read([got], (step * 5) % 19, read)
      expect(ring.availableRead()).toBe(written - read)
    }
    expect(ring.dropped).toBe(0)
    expect(Array.from(got)).toEqual(Array.from(source))
  })

  it('a missing source channel repeats channel 0; writeSilence writes zeros', () => {
    const ring = SampleRing.create(2, 8)
    ring.write([Float32Array.of(1, 2, 3)], 3)
    ring.writeSilence(2)
    const out = planes(2, 5)
    expect(ring.read(out, 5)).toBe(5)
    expect(out.map((c) => Array.from(c))).toEqual([
      [1, 2, 3, 0, 0],
      [1, 2, 3, 0, 0],
    ])
  })

  it('the first frame is NaN until the producer sets it, set once, and seen by a second view', () => {
    const ring = SampleRing.create(1, 4)
    const other = new SampleRing(ring.buffer)
    expect(other.firstFrame).toBeNaN()
    ring.beginAt(44_100 * 3600 * 30) // beyond 32 bits of frames: a day-long session
    ring.beginAt(5)
    expect(other.firstFrame).toBe(44_100 * 3600 * 30)
    expect([other.channels, other.capacity]).toEqual([1, 4])
  })

  it('a ring of no channels still counts frames (a progress tap)', () => {
    const ring = SampleRing.create(0, 1000)
    expect(ring.buffer.byteLength).toBeLessThan(64)
    ring.writeSilence(300)
    expect(new SampleRing(ring.buffer).availableRead()).toBe(300)
  })

  it('a producer thread and a consumer thread running at once lose, repeat and reorder nothing', async () => {
    const FRAMES = 1 << 20
    const ring = SampleRing.create(2, 1000)
    // The producer runs in its own thread, writing uneven slices as fast as the ring takes them.
    const producer = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads')
       import(workerData.tsx).then(({ tsImport }) => tsImport(workerData.ring, workerData.tsx)).then(({ SampleRing }) => {
         const ring = new SampleRing(workerData.buffer)
         const a = new Float32Array(97), b = new Float32Array(97)
         let sent = 0, spins = 0
         while (sent < workerData.frames) {
           const n = Math.min(workerData.frames - sent, 1 + (sent % 97))
           for (let i = 0; i < n; i++) { a[i] = sent + i; b[i] = -(sent + i) }
           const free = ring.availableWrite()
           if (free < n) { spins++; continue }
           sent += ring.write([a, b], n)
         }
         parentPort.postMessage({ sent, spins })
       })`,
      {
        eval: true,
        workerData: {
          tsx: tsxEsmApi(),
          ring: fileURLToPath(new URL('./sample-ring.ts', import.meta.url)),
          buffer: ring.buffer,
          frames: FRAMES,
        },
      },
    )
    const done = new Promise<{ sent: number; spins: number }>((resolve, reject) => {
      producer.once('message', resolve)
      producer.once('error', reject)
    })
    const l = new Float32Array(FRAMES)
    const r = new Float32Array(FRAMES)
    let got = 0
    let reads = 0
    while (got < FRAMES) {
      const n = ring.read([l, r], Math.min(FRAMES - got, 1 + (reads % 61)), got)
      got += n
      reads++
      // Let the producer's messages through now and then; the reads themselves never block.
      if (n === 0 && reads % 1024 === 0) await new Promise((res) => setImmediate(res))
    }
    const { sent } = await done
    await producer.terminate()
    expect(sent).toBe(FRAMES)
    expect(ring.dropped).toBe(0)
    let mismatches = 0
    for (let i = 0; i < FRAMES; i++) if (l[i] !== i || r[i] !== -i) mismatches++
    expect(mismatches).toBe(0)
  })
})
