/**
 * Keyboard latency: from a key press reaching the instrument to the note sounding. A
 * note played on the computer keyboard or a MIDI keyboard is a message to the SoundFont worklet,
 * applied at the start of the next quantum it renders. Measured on the app's own realtime context
 * (latencyHint 'interactive'): the context frame when the note was sent (currentTime) against the
 * frame of the quantum it sounded in (reported by the worklet), over 200 notes at random moments.
 * The target: within the context's output latency (baseLatency + outputLatency, what every sound
 * of the page waits for) plus one render quantum (128 frames).
 */
import { getAudioContext, unlockAudio } from '../../src/engine/audio-context.ts'
import { createLiveInstrument } from '../../src/engine/instruments/live-instrument.ts'
import type { BenchResult } from '../types.ts'

const NOTES = 200
const QUANTUM = 128
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function run(): Promise<BenchResult[]> {
  await unlockAudio()
  const ctx = getAudioContext()
  const live = await createLiveInstrument(ctx)
  live.setInstrument(0, false)
  live.connect(ctx.destination as never)
  for (let i = 0; i < 10; i++) {
    await live.measure(60, 1)
    live.noteOff(60)
  }
  const late: number[] = []
  for (let i = 0; i < NOTES; i++) {
    await sleep(5 + Math.random() * 30)
    const key = 48 + (i % 24)
    const { sentFrame, soundedFrame } = await live.measure(key, 1)
    late.push(soundedFrame - sentFrame)
    live.noteOff(key)
  }
  live.dispose()
  late.sort((a, b) => a - b)
  const ms = (frames: number) => (frames / ctx.sampleRate) * 1000
  const q = (p: number) => late[Math.min(late.length - 1, Math.floor(p * late.length))]!
  const output = ((ctx as { outputLatency?: number }).outputLatency ?? 0) + (ctx.baseLatency ?? 0)
  const within = late.filter((f) => f <= QUANTUM).length
  return [
    { name: 'sent → sounding quantum, p50', value: ms(q(0.5)), unit: 'ms', detail: `${q(0.5)} frames at ${ctx.sampleRate} Hz` },
    { name: 'sent → sounding quantum, p99', value: ms(q(0.99)), unit: 'ms', detail: `${q(0.99)} frames` },
    { name: 'sent → sounding quantum, max', value: ms(late[late.length - 1]!), unit: 'ms', detail: `${late[late.length - 1]} frames` },
    {
      name: 'notes within one quantum (128 frames)',
      value: (100 * within) / late.length,
      unit: '%',
      detail: `${within} of ${late.length}`,
    },
    {
      name: "context's output latency",
      value: output * 1000,
      unit: 'ms',
      detail: `baseLatency ${((ctx.baseLatency ?? 0) * 1000).toFixed(2)} ms + outputLatency ${(
        ((ctx as { outputLatency?: number }).outputLatency ?? 0) * 1000
      ).toFixed(2)} ms`,
    },
    {
      name: 'key to sound, p99 (output latency + p99)',
      value: output * 1000 + ms(q(0.99)),
      unit: 'ms',
      detail: `target ≤ output latency + one quantum = ${(output * 1000 + ms(QUANTUM)).toFixed(2)} ms`,
    },
  ]
}
