/**
 * The remix render against the preview's graph rendered offline (the reference: the remix voice
 * worklet → channel strip worklet → master bus, exactly what the page plays), in real Chromium,
 * with every tool, sample and effect on. Then the preview graph live: a Drum Loop layer is audible
 * in the master bus and a seek moves the position report.
 */
import { describe, expect, it } from 'vitest'
import { renderRemixAudio, remixLength } from '../../src/engine/remix/remix-render.ts'
import { stripControls, voiceControls, defaultRemixSettings } from '../../src/engine/remix/remix-settings.ts'
import type { PreparedRemix } from '../../workers/remix-prepare.ts'
import { noise, rms, sine } from '../../audio-worklets/kernels/test-signals.ts'

const SR = 48000
const dbfs = (x: number) => 20 * Math.log10(Math.max(x, 1e-12))

function clickLoop(seconds: number): Float32Array {
  const x = new Float32Array(Math.round(seconds * SR))
  for (let b = 0; b < 4; b++) for (let i = 0; i < 200; i++) x[Math.round((b * seconds * SR) / 4) + i] = Math.exp(-i / 40) * 0.8
  return x
}

function prepared(): PreparedRemix {
  const tone = sine(6 * SR, 440, 0.4)
  const n = noise(6 * SR, 0.05, 7)
  return {
    sampleRate: SR,
    bpm: 120,
    firstBeat: 0.137,
    source: [tone.map((v, i) => v + n[i]!), tone.map((v, i) => 0.8 * v - n[i]!)],
    layers: {
      drums: { loop: clickLoop(2), firstBeat: 0.137, period: 2 },
      bass: { loop: sine(2 * SR, 55, 0.3), firstBeat: 0.137, period: 2 },
      synth: { loop: sine(SR, 660, 0.2), firstBeat: 0.137, period: 1 },
    },
  }
}

describe('remix render', () => {
  it(
    'the worker render equals the preview graph rendered offline (every tool, sample and effect on): difference below ' + '-90 dBFS',
    async () => {
      const s = defaultRemixSettings()
      const settings = {
        ...s,
        samples: { drums: { on: true, level: 80 }, bass: { on: true, level: 60 }, synth: { on: true, level: 50 } },
        harmonize: { on: true, mix: 60 },
        autoTune: { on: true, retune: 100 },
      }
      const controls = { voice: voiceControls(settings, { tonic: 9, mode: 'major' as const }), strip: stripControls(settings) }
      const p = prepared()
      const progress: number[] = []
      const [workers, graph] = [
        await renderRemixAudio(p, controls, { engine: 'workers', onProgress: (f) => progress.push(f) }),
        await renderRemixAudio(p, controls, { engine: 'graph' }),
      ]
      for (let c = 0; c < 2; c++) {
        expect(workers[c]!.length).toBe(remixLength(p))
        expect(graph[c]!.length).toBe(remixLength(p))
        let worst = 0
        for (let i = 0; i < workers[c]!.length; i++) worst = Math.max(worst, Math.abs(workers[c]![i]! - graph[c]![i]!))
        expect(dbfs(worst)).toBeLessThan(-90)
        expect(rms(graph[c]!)).toBeGreaterThan(0.05) // something real was compared
      }
      expect(progress.at(-1)).toBe(1)
    },
  )

  it('Harmonize is audible through the voice worklet: on a 440 Hz source in A major the render gains energy at C#5 and E5', async () => {
    const s = defaultRemixSettings()
    const p = { ...prepared(), source: [sine(6 * SR, 440, 0.4)], layers: {} }
    const quiet = { ...s, effects: { reverb: 0, delay: 0, distortion: 0 } }
    const render = (on: boolean) => {
      const settings = { ...quiet, harmonize: { on, mix: 60 } }
      return renderRemixAudio(
        p,
        { voice: voiceControls(settings, { tonic: 9, mode: 'major' }), strip: stripControls(settings) },
        { engine: 'graph' },
      )
    }
    const [off] = await render(false)
    const [on] = await render(true)
    // Goertzel-free check: correlate a second of the output with the voices' sines (any phase).
    const energyAt = (x: Float32Array, hz: number) => {
      let c = 0,
        q = 0
      for (let i = 2 * SR; i < 3 * SR; i++) {
        c += x[i]! * Math.cos((2 * Math.PI * hz * i) / SR)
        q += x[i]! * Math.sin((2 * Math.PI * hz * i) / SR)
      }
      return Math.hypot(c, q) / SR
    }
    for (const hz of [554.37, 659.26]) {
      expect(energyAt(on!, hz)).toBeGreaterThan(0.05)
      expect(energyAt(off!, hz)).toBeLessThan(0.005)
    }
    expect(rms(on!)).toBeGreaterThan(rms(off!))
  })

  it('a cancelled render rejects at once with an AbortError', async () => {
    const controller = new AbortController()
    const p = prepared()
    const s = defaultRemixSettings()
    const run = renderRemixAudio(
      p,
      { voice: voiceControls(s, { tonic: 0, mode: 'major' }), strip: stripControls(s) },
      { engine: 'workers', signal: controller.signal },
    )
    controller.abort()
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
  })
})
