/**
 * The score renderer triggers notes a little ahead of the render (src/engine/score-schedule.ts)
 * instead of all before it, which Chromium renders far faster. It must not change a sample: the
 * same Tone.js voices and notes render to the same bits either way.
 */
import { expect, it } from 'vitest'
import { renderAhead, type Trigger } from '../../src/engine/score-schedule.ts'

const SR = 44100
const SECONDS = 6.3

/** Two overlapping voice kinds with notes every 0.11 s (releases overlapping the next attacks). */
async function render(ahead: boolean): Promise<Float32Array[]> {
  const Tone = await import('tone')
  const native = new OfflineAudioContext(2, Math.ceil(SECONDS * SR), SR)
  const context = new Tone.OfflineContext(native as unknown as ConstructorParameters<typeof Tone.OfflineContext>[0])
  const synth = new Tone.Synth({ context, oscillator: { type: 'fatsawtooth', count: 2, spread: 20 } }).connect(context.destination)
  const fm = new Tone.FMSynth({ context, envelope: { attack: 0.004, decay: 0.4, sustain: 0.3, release: 0.5 } }).connect(context.destination)
  const lists: Trigger[][] = [[], []]
  for (let i = 0; i < 50; i++) {
    const at = 0.05 + i * 0.11
    lists[0]!.push({ at, fire: () => synth.triggerAttackRelease(220 + 7 * i, 0.17, at, 0.8) })
    lists[1]!.push({ at, fire: () => fm.triggerAttackRelease(330 + 3 * i, 0.09, at, 0.6) })
  }
  let buffer: AudioBuffer
  if (ahead) buffer = await renderAhead(Tone, context, native, lists, { step: 0.5 })
  else {
    for (const list of lists) for (const t of list) t.fire()
    buffer = (await context.render(false)).get()!
  }
  return [buffer.getChannelData(0), buffer.getChannelData(1)]
}

it('notes triggered ahead of the render give the same samples as all triggered before it', async () => {
  const before = await render(false)
  const ahead = await render(true)
  let energy = 0
  for (let c = 0; c < 2; c++) {
    expect(ahead[c]!.length).toBe(before[c]!.length)
    let differ = 0
    for (let i = 0; i < before[c]!.length; i++) {
      if (ahead[c]![i] !== before[c]![i]) differ++
      energy += before[c]![i]! ** 2
    }
    expect(differ).toBe(0)
  }
  // Not two silences: the notes sound (to the last one).
  expect(energy).toBeGreaterThan(100)
  expect(before[0]!.subarray(Math.round(5.5 * SR), Math.round(5.6 * SR)).some((v) => Math.abs(v) > 0.01)).toBe(true)
})
