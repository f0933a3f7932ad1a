/**
 * One bar of clicks before a recording, at the project tempo: the clicks are scheduled on the
 * audio clock (exact), the beat numbers shown follow them; `barEnd` is known at once (the
 * microphone opens during the bar and keeps only what comes after it) and `done` resolves a moment
 * before it, so playback can be started on it exactly.
 */
import { unlockAudio } from '../../../engine/audio-context.ts'
import { getMasterBus } from '../../../engine/master-bus.ts'
import { BEATS_PER_BAR, countIn } from '../../../engine/metronome.ts'

/**
 * `done` resolves this long before the bar ends: time enough to schedule playback on its first
 * sample even when a busy page runs the timer late (playback itself is on the audio clock).
 */
const RESOLVE_AHEAD_SECONDS = 0.5

export interface CountIn {
  /** Context time the bar after the clicks begins: where playback and the take start. */
  barEnd: number
  done: Promise<void>
}

export async function startCountIn(bpm: number, onBeat: (beatsLeft: number) => void): Promise<CountIn> {
  const ctx = await unlockAudio()
  const barEnd = countIn(ctx, getMasterBus().input as never, bpm)
  const beat = 60 / bpm
  const first = barEnd - BEATS_PER_BAR * beat
  for (let k = 0; k < BEATS_PER_BAR; k++)
    setTimeout(() => onBeat(BEATS_PER_BAR - k), Math.max(0, (first + k * beat - ctx.currentTime) * 1000))
  const done = new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, (barEnd - RESOLVE_AHEAD_SECONDS - ctx.currentTime) * 1000)))
  return { barEnd, done }
}
