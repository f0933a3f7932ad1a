import { describe, expect, it } from 'vitest'
import {
  ChunkWriter,
  assembleChunks,
  latencyFrames,
  trimLatency,
  type RecordingChunkStore,
  type RecordingSession,
  type StoredChunk,
} from './recorder-chunks.ts'

/** The same contract as the IndexedDB store, in memory; `failAfter` simulates a full disk. */
function memoryStore(options: { failAfter?: number; delayMs?: number } = {}) {
  const sessions = new Map<string, RecordingSession>()
  const chunks: StoredChunk[] = []
  let appends = 0
  const store: RecordingChunkStore = {
    begin: async (s) => void sessions.set(s.id, s),
    append: async (c) => {
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs! * (c.seq % 2 === 0 ? 2 : 1)))
      if (options.failAfter !== undefined && appends >= options.failAfter) throw new Error('QuotaExceededError')
      appends++
      chunks.push(structuredClone(c))
    },
    sessions: async () => [...sessions.values()],
    chunks: async (id) => chunks.filter((c) => c.sessionId === id),
    remove: async (id) => {
      sessions.delete(id)
      for (let i = chunks.length - 1; i >= 0; i--) if (chunks[i]!.sessionId === id) chunks.splice(i, 1)
    },
  }
  return { store, chunks, sessions }
}

const session = (over: Partial<RecordingSession> = {}): RecordingSession => ({
  id: 's1',
  startedAt: 0,
  sampleRate: 1000,
  channelCount: 1,
  trimFrames: 0,
  timelineOffset: 0,
  ...over,
})
const ramp = (start: number, n: number) => Float32Array.from({ length: n }, (_, i) => start + i)

describe('ChunkWriter', () => {
  it('writes a chunk each time a second of audio has gathered, not before', async () => {
    const { store, chunks } = memoryStore()
    const w = new ChunkWriter(store, session(), 1000)
    for (let i = 0; i < 9; i++) w.push([ramp(i * 100, 100)])
    await Promise.resolve()
    expect(chunks).toHaveLength(0)
    w.push([ramp(900, 100)])
    await new Promise((r) => setTimeout(r, 0))
    expect(chunks).toHaveLength(1)
    expect(chunks[0]!.channels[0]!.length).toBe(1000)
    expect(w.frames).toBe(1000)
  })

  it('a crash loses at most the chunk being filled: stored chunks reassemble to the exact prefix', async () => {
    const { store } = memoryStore()
    const w = new ChunkWriter(store, session(), 1000)
    for (let i = 0; i < 25; i++) w.push([ramp(i * 100, 100)]) // 2.5 s, never flushed (the "crash")
    await new Promise((r) => setTimeout(r, 0))
    const stored = assembleChunks(await store.chunks('s1'), 1)[0]!
    expect(stored.length).toBe(2000)
    expect(Array.from(stored.subarray(0, 5))).toEqual([0, 1, 2, 3, 4])
    expect(stored[1999]).toBe(1999)
    expect(w.frames - stored.length).toBeLessThanOrEqual(1000)
  })

  it('flush writes the remainder; chunks land in order even when writes finish out of order', async () => {
    const { store, chunks } = memoryStore({ delayMs: 5 })
    const w = new ChunkWriter(store, session(), 300)
    for (let i = 0; i < 10; i++) w.push([ramp(i * 128, 128)])
    await w.flush()
    expect(chunks.map((c) => c.seq)).toEqual([0, 1, 2, 3])
    const all = assembleChunks(chunks, 1)[0]!
    expect(all.length).toBe(1280)
    expect(all.every((v, i) => v === i)).toBe(true)
    expect(w.takeAll()[0]).toEqual(all)
  })

  it('copies blocks: reusing the posted buffer afterwards does not corrupt the take', async () => {
    const { store } = memoryStore()
    const w = new ChunkWriter(store, session(), 10_000)
    const block = ramp(0, 4)
    w.push([block])
    block.fill(-1)
    expect(Array.from(w.takeAll()[0]!)).toEqual([0, 1, 2, 3])
  })

  it('keeps the take in memory and reports a write failure on flush', async () => {
    const { store } = memoryStore({ failAfter: 1 })
    const w = new ChunkWriter(store, session(), 100)
    for (let i = 0; i < 3; i++) w.push([ramp(i * 100, 100)])
    await expect(w.flush()).rejects.toThrow('QuotaExceededError')
    expect(w.takeAll()[0]!.length).toBe(300)
  })

  it('stereo sessions duplicate a mono block to both channels', () => {
    const { store } = memoryStore()
    const w = new ChunkWriter(store, session({ channelCount: 2 }), 1000)
    w.push([ramp(0, 3)])
    const [l, r] = w.takeAll()
    expect(Array.from(r!)).toEqual(Array.from(l!))
  })

  it('remove deletes a session and only its chunks', async () => {
    const { store, chunks, sessions } = memoryStore()
    await store.begin(session())
    await store.begin(session({ id: 's2' }))
    const a = new ChunkWriter(store, session(), 10)
    const b = new ChunkWriter(store, session({ id: 's2' }), 10)
    a.push([ramp(0, 10)])
    b.push([ramp(0, 10)])
    await Promise.all([a.flush(), b.flush()])
    await store.remove('s1')
    expect([...sessions.keys()]).toEqual(['s2'])
    expect(chunks.map((c) => c.sessionId)).toEqual(['s2'])
  })
})

describe('latency compensation', () => {
  it('sums base, output and input latency in frames, ignoring missing or absurd values', () => {
    expect(latencyFrames(48000, { baseLatency: 0.01, outputLatency: 0.02, inputLatency: 0.005 })).toBe(1680)
    expect(latencyFrames(44100, { baseLatency: 0.01 })).toBe(441)
    expect(latencyFrames(48000, { baseLatency: Number.NaN, outputLatency: -1, inputLatency: 5 })).toBe(0)
  })

  it('trimLatency drops the first frames of every channel', () => {
    const [a] = trimLatency([ramp(0, 10)], 3)
    expect(Array.from(a!)).toEqual([3, 4, 5, 6, 7, 8, 9])
    expect(trimLatency([ramp(0, 2)], 5)[0]!.length).toBe(0)
  })
})
