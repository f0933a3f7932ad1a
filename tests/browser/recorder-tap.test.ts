/**
 * The recorder tap in real Chromium, with a real AudioWorklet: frames reach the main thread through
 * the SharedArrayBuffer ring (the page is cross-origin isolated, as every server of ours makes it)
 * and, as the fallback, through posted blocks; both must hand over exactly what the graph played,
 * in order, each block stamped with the context frame of its first sample.
 */
import { describe, expect, it } from 'vitest'
import { AudioContext, OfflineAudioContext } from 'standardized-audio-context'
import {
  createCaptureTap,
  createProgressTap,
  loadRecorderWorklet,
  sharedMemoryAvailable,
  type RecorderTransport,
} from '../../src/engine/recorder-worklet.ts'
import { noise } from '../../audio-worklets/kernels/test-signals.ts'

const SR = 48000
const BLOCK = 4864 // ~0.1 s in whole quanta, as the recorder asks for

interface Captured {
  starts: number[]
  sizes: number[]
  channels: Float32Array[]
}

function collector(channelCount: number): { captured: Captured; onBlock: (c: Float32Array[], start: number) => void } {
  const parts: Float32Array[][] = Array.from({ length: channelCount }, () => [])
  const captured: Captured = { starts: [], sizes: [], channels: [] }
  return {
    captured,
    onBlock(channels, start) {
      captured.starts.push(start)
      captured.sizes.push(channels[0]!.length)
      // The ring reuses its block arrays: keep copies.
      channels.forEach((c, i) => parts[i]!.push(c.slice()))
      captured.channels = parts.map((p) => {
        const out = new Float32Array(p.reduce((n, c) => n + c.length, 0))
        let at = 0
        for (const c of p) {
          out.set(c, at)
          at += c.length
        }
        return out
      })
    },
  }
}

async function offlineCapture(transport: RecorderTransport, source: Float32Array[]): Promise<Captured> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: source[0]!.length, sampleRate: SR })
  await loadRecorderWorklet(ctx)
  const buffer = ctx.createBuffer(2, source[0]!.length, SR)
  source.forEach((c, i) => buffer.copyToChannel(c, i))
  const player = ctx.createBufferSource()
  player.buffer = buffer
  const { captured, onBlock } = collector(2)
  const tap = createCaptureTap(ctx, { channels: 2, blockFrames: BLOCK, onBlock, transport })
  expect(tap.transport).toBe(transport)
  player.connect(tap.node)
  tap.node.connect(ctx.destination)
  player.start(0)
  await ctx.startRendering()
  await tap.stop()
  return captured
}

describe('recorder tap', () => {
  it('the test page is cross-origin isolated, so the app takes the ring', () => {
    expect(crossOriginIsolated).toBe(true)
    expect(sharedMemoryAvailable()).toBe(true)
  })

  for (const transport of ['ring', 'messages'] as const) {
    it(`${transport}: an offline render comes back sample for sample, in ~0.1 s blocks stamped with their frames`, async () => {
      const frames = 2 * SR + 1000 // not a whole number of blocks: the stop delivers the rest
      const source = [noise(frames, 0.5, 7), noise(frames, 0.5, 8)]
      const got = await offlineCapture(transport, source)
      // The render runs whole quanta: the last one goes past the context's length, in silence.
      const rendered = Math.ceil(frames / 128) * 128
      expect(got.channels[0]!.length).toBe(rendered)
      let mismatches = 0
      for (let c = 0; c < 2; c++) for (let i = 0; i < rendered; i++) if (got.channels[c]![i] !== (source[c]![i] ?? 0)) mismatches++
      expect(mismatches).toBe(0)
      expect(got.starts[0]).toBe(0)
      for (let b = 1; b < got.starts.length; b++) expect(got.starts[b]).toBe(got.starts[b - 1]! + got.sizes[b - 1]!)
      expect(got.sizes.slice(0, -1).every((n) => n === BLOCK)).toBe(true)
    })
  }

  it('ring, live context: a 1 kHz oscillator captured for half a second is contiguous and still 1 kHz', async () => {
    const ctx = new AudioContext({ sampleRate: SR })
    try {
      await ctx.resume()
      await loadRecorderWorklet(ctx)
      const osc = ctx.createOscillator()
      osc.frequency.value = 1000
      const { captured, onBlock } = collector(1)
      const tap = createCaptureTap(ctx, { channels: 1, blockFrames: BLOCK, onBlock })
      expect(tap.transport).toBe('ring')
      osc.connect(tap.node)
      tap.node.connect(ctx.destination)
      osc.start()
      await new Promise((r) => setTimeout(r, 600))
      await tap.stop()
      osc.stop()
      const x = captured.channels[0]!
      expect(x.length).toBeGreaterThan(0.3 * SR)
      for (let b = 1; b < captured.starts.length; b++) expect(captured.starts[b]).toBe(captured.starts[b - 1]! + captured.sizes[b - 1]!)
      // Upward zero crossings over the settled part (the oscillator may start a quantum late).
      const from = Math.floor(0.05 * SR)
      let crossings = 0
      for (let i = from + 1; i < x.length; i++) if (x[i - 1]! < 0 && x[i]! >= 0) crossings++
      const hz = crossings / ((x.length - from) / SR)
      expect(Math.abs(hz - 1000)).toBeLessThan(5)
    } finally {
      await ctx.close()
    }
  })

  for (const transport of ['ring', 'messages'] as const) {
    it(`${transport}: a progress tap reports rising frames during an offline render`, async () => {
      const length = 20 * SR
      const ctx = new OfflineAudioContext({ numberOfChannels: 1, length, sampleRate: SR })
      await loadRecorderWorklet(ctx)
      const seen: number[] = []
      const osc = ctx.createOscillator()
      const tap = createProgressTap(ctx, length, (f) => seen.push(f), transport)
      osc.connect(tap.node)
      tap.node.connect(ctx.destination)
      osc.start(0)
      await ctx.startRendering()
      // The ring is read on a timer: give it one more turn after the render.
      await new Promise((r) => setTimeout(r, 120))
      tap.dispose()
      expect(seen.length).toBeGreaterThan(0)
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!)
      expect(seen.at(-1)!).toBeLessThanOrEqual(length + 128)
      expect(seen.at(-1)!).toBeGreaterThan(0.9 * length)
    })
  }
})
