import { describe, expect, it } from 'vitest'
import { STRIP_PARAM_DESCRIPTORS } from '../audio-worklets/channel-strip-params.ts'
import { REMIX_VOICE_PARAM_NAMES } from '../audio-worklets/remix-voice-params.ts'
import { compose } from './composer/index.ts'
import { renderScore } from './composer-test-render.ts'
import { analyseRemixSource } from './remix-analysis.ts'
import { prepareRemix } from './remix-prepare.ts'
import { renderRemix } from './remix-render.ts'
import { stripModule } from '../audio-worklets/strip-module.node.ts'

const SR = 16000
const neutralStrip = Object.fromEntries(STRIP_PARAM_DESCRIPTORS.map((d) => [d.name, d.defaultValue])) as Record<
  (typeof STRIP_PARAM_DESCRIPTORS)[number]['name'],
  number
>
const voiceOff = Object.fromEntries(REMIX_VOICE_PARAM_NAMES.map((n) => [n, 0])) as Record<(typeof REMIX_VOICE_PARAM_NAMES)[number], number>

/** A 120 BPM drum loop of 8 beats: a sharp click on every beat. */
function clickLoop(): Float32Array {
  const x = new Float32Array(4 * SR)
  for (let b = 0; b < 8; b++) for (let i = 0; i < 60; i++) x[b * (SR / 2) + i] = Math.exp(-i / 12) * (i % 2 ? -0.9 : 0.9)
  return x
}

function onsets(x: Float32Array, threshold: number): number[] {
  const out: number[] = []
  let last = -Infinity
  for (let i = 0; i < x.length; i++)
    if (Math.abs(x[i]!) > threshold && i - last > 0.15 * SR) {
      out.push(i / SR)
      last = i
    }
  return out
}

describe('remix render (voice + strip, quantum by quantum)', () => {
  it("Beat Match to 110% tempo with the Drum Loop on: the loop's onsets in the rendered remix sit on the source's beat " +
    'grid within ±10 ms', () => {
    const score = compose({ description: 'samples on the beat', genre: 'pop', mood: 'happy', minDurationSeconds: 20 })
    const x = renderScore(score, 20, SR)
    const analysis = analyseRemixSource([x], SR)
    expect(Math.abs(analysis.bpm - score.bpm)).toBeLessThanOrEqual(1)
    const targetBpm = Math.round(score.bpm * 1.1)
    const prepared = prepareRemix([x], {
      sampleRate: SR,
      bpm: analysis.bpm,
      firstBeat: analysis.firstBeat,
      targetBpm,
      loops: { drums: { pcm: clickLoop(), bpm: 120 } },
    })
    const job = (drums: number) => ({
      sampleRate: SR,
      length: prepared.source[0]!.length,
      voice: prepared,
      voiceControls: { ...voiceOff, drums },
      stripControls: neutralStrip,
      stripModule: stripModule(),
    })
    const [withLoop] = renderRemix(job(100))
    const [without] = renderRemix(job(0))
    const layer = withLoop!.map((v, i) => v - without![i]!)
    const found = onsets(layer, 0.3)
    // The score's beats, moved by the stretch: where the output's beats truly are.
    const beat = (60 / score.bpm) * (analysis.bpm / targetBpm)
    expect(found.length).toBeGreaterThan(25)
    const worst = Math.max(...found.map((t) => Math.abs(t - Math.round(t / beat) * beat)))
    expect(worst).toBeLessThan(0.01)
  }, 60_000)

  it('is deterministic and ends with the source plus the tail', () => {
    const source = [Float32Array.from({ length: SR }, (_, i) => Math.sin(i / 10) * 0.5)]
    const job = {
      sampleRate: SR,
      length: 2 * SR,
      voice: { source, layers: {} },
      voiceControls: voiceOff,
      stripControls: { ...neutralStrip, reverb: 50 },
      stripModule: stripModule(),
    }
    const [a] = renderRemix(job)
    const [b] = renderRemix(job)
    expect(a).toEqual(b)
    let tail = 0
    for (let i = SR + 100; i < 2 * SR; i++) tail = Math.max(tail, Math.abs(a![i]!))
    expect(tail).toBeGreaterThan(1e-3) // the reverb rings on after the source ends
    expect(() => renderRemix({ ...job, length: 0 })).toThrow(RangeError)
  })
})
