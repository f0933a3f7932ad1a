/**
 * A shared track link recreates the very same piece on another device, so a score must render to
 * the same samples however the render is scheduled: alone, several at once in one page, with or
 * without progress reporting, and with the machine busy.
 *
 * With Chromium's ConvolverNode as the reverb, 3 of 9 concurrent renders of this piece differed
 * (it convolves a response's tail on a background thread); with the reverb send off, 0 of 9. The
 * reverb is now our own WebAssembly convolution running inside the render
 * (src/engine/convolution-reverb.ts), and this checks the piece with its reverb.
 */
import { describe, expect, it } from 'vitest'
import { compose } from '../../workers/composer/index.ts'
import { renderScore } from '../../src/engine/score-renderer.ts'

async function digest(buffer: AudioBuffer): Promise<string> {
  const n = buffer.length
  const bytes = new Uint8Array(buffer.numberOfChannels * n * 4)
  for (let c = 0; c < buffer.numberOfChannels; c++) bytes.set(new Uint8Array(buffer.getChannelData(c).slice().buffer), c * n * 4)
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** A worker that spins until terminated: the page's renders compete with it for the CPU. */
function busyWorker(): Worker {
  const source = 'let n = 0; for (;;) n = (n + 1) | 0'
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }))
  const worker = new Worker(url)
  URL.revokeObjectURL(url)
  return worker
}

function rms(buffer: AudioBuffer): number {
  let sum = 0
  for (let c = 0; c < buffer.numberOfChannels; c++) for (const v of buffer.getChannelData(c)) sum += v * v
  return Math.sqrt(sum / (buffer.numberOfChannels * buffer.length))
}

describe('score rendering is deterministic', () => {
  it('the saxophone piece with its reverb renders to the same samples alone, three at once on a busy CPU, and with progress', async () => {
    const description = 'rainy neon night drive with a lonely saxophone'
    const score = compose({ description })
    // What the share link carries: the resolved style and instrument instead of 'auto'.
    const shared = compose({ description, mood: 'sad', genre: 'electronic', instruments: ['saxophone'] })
    expect(score.mix.reverb).toBeGreaterThan(0)

    // The reverb is really in the mix: without its send the opening differs by far more than rounding.
    const wet = await renderScore(score, { to: 6, normalise: false })
    const dry = await renderScore({ ...score, mix: { ...score.mix, reverb: 0 } }, { to: 6, normalise: false })
    const diff = new AudioBuffer({ length: dry.length, numberOfChannels: 2, sampleRate: dry.sampleRate })
    for (let c = 0; c < 2; c++) {
      const a = wet.getChannelData(c)
      const b = dry.getChannelData(c)
      diff.copyToChannel(
        Float32Array.from(a, (v, i) => v - b[i]!),
        c,
      )
    }
    expect(20 * Math.log10(rms(diff) / rms(wet))).toBeGreaterThan(-30)

    // The first 30 s (intro, verse and into the chorus): every part, the echo and the reverb are sounding by then.
    const to = 30
    const alone = await digest(await renderScore(score, { to }))
    const busy = busyWorker()
    try {
      const progress: number[] = []
      const concurrent = await Promise.all([
        renderScore(shared, { to }),
        renderScore(score, { to, onProgress: () => {} }),
        renderScore(shared, { to, onProgress: (f) => progress.push(f) }),
      ])
      expect(progress.length).toBeGreaterThan(10)
      expect(await Promise.all(concurrent.map(digest))).toEqual([alone, alone, alone])
    } finally {
      busy.terminate()
    }
  }, 120_000)

  it('each part in a context of its own mixes to the very samples of one graph holding every part', async () => {
    // Chords, pad, lead, bass, drums and the waves texture: every kind of bus, with drive, echo and reverb sends.
    const cases = [
      compose({ description: 'waves on a sad jazz night', mood: 'sad', genre: 'jazz' }),
      compose({ description: 'riffs at full tilt', mood: 'energetic', genre: 'metal' }),
    ]
    for (const score of cases) {
      const parts = await renderScore(score, { to: 12, normalise: false })
      const oneGraph = await renderScore(score, { to: 12, normalise: false, engine: 'one-graph' })
      expect(rms(oneGraph)).toBeGreaterThan(0.01)
      expect(await digest(parts)).toBe(await digest(oneGraph))
      // A window with a pre-roll (CUBE Radio's segments) too.
      const window = { from: 8, to: 14, preroll: 3, normalise: false }
      expect(await digest(await renderScore(score, window))).toBe(
        await digest(await renderScore(score, { ...window, engine: 'one-graph' })),
      )
    }
  }, 120_000)

  it('reports progress that only grows, through the parts and then the mix, and a cancel stops it', async () => {
    const score = compose({ description: 'rainy neon night drive with a lonely saxophone' })
    const progress: number[] = []
    await renderScore(score, { to: 10, onProgress: (f) => progress.push(f) })
    expect(progress.at(-1)).toBe(1)
    expect(progress.some((f) => f > 0 && f < 0.8)).toBe(true)
    expect(progress.some((f) => f > 0.8 && f < 1)).toBe(true)
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!)
    const controller = new AbortController()
    const cancelled = renderScore(score, { signal: controller.signal, onProgress: (f) => f > 0.1 && controller.abort() })
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' })
  }, 60_000)

  it('a cancel halts every context of the render, the voice groups that report no progress too', async () => {
    // Every offline context the render creates, to watch their clocks after the cancel.
    const Native = globalThis.OfflineAudioContext
    const contexts: OfflineAudioContext[] = []
    globalThis.OfflineAudioContext = class extends Native {
      constructor(...args: ConstructorParameters<typeof OfflineAudioContext>) {
        super(...(args as [number, number, number]))
        contexts.push(this)
      }
    } as typeof OfflineAudioContext
    try {
      const score = compose({ description: 'rainy neon night drive with a lonely saxophone' })
      const controller = new AbortController()
      const cancelled = renderScore(score, { signal: controller.signal, onProgress: (f) => f > 0.05 && controller.abort() })
      await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' })
      // Parts, and the chords' and pad's voice groups: more contexts than parts that report.
      expect(contexts.length).toBeGreaterThan(6)
      const clocks = () => contexts.map((c) => c.currentTime)
      await new Promise((r) => setTimeout(r, 300))
      const halted = clocks()
      await new Promise((r) => setTimeout(r, 1500))
      expect(clocks()).toEqual(halted)
      expect(halted.every((t) => t < score.renderDuration)).toBe(true)
    } finally {
      globalThis.OfflineAudioContext = Native
    }
  }, 60_000)
})
