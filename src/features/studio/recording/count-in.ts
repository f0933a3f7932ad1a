/**
 * One bar of clicks before a recording, at the project tempo: the clicks are scheduled on the
 * audio clock (exact), the beat numbers shown follow them, and the promise resolves a moment
 * before the bar ends with the context time it ends at, so playback can be started on it exactly.
 */
import { unlockAudio } from '../../../engine/audio-context.ts'
import { getMasterBus } from '../../../engine/master-bus.ts'
import { BEATS_PER_BAR, countIn } from '../../../engine/metronome.ts'

/** Resolve this long before the bar ends: time enough to schedule playback on its first sample. */
const RESOLVE_AHEAD_SECONDS = 0.12

export async function runCountIn(bpm: number, onBeat: (beatsLeft: number) => void, signal?: AbortSignal): Promise<number> {
  const ctx = await unlockAudio()
  const barEnd = countIn(ctx, getMasterBus().input as never, bpm)
  const beat = 60 / bpm
  const first = barEnd - BEATS_PER_BAR * beat
  return new Promise<number>((resolve, reject) => {
    const timers: ReturnType<typeof setTimeout>[] = []
    for (let k = 0; k < BEATS_PER_BAR; k++) timers.push(setTimeout(() => onBeat(BEATS_PER_BAR - k), Math.max(0, (first + k * beat - ctx.currentTime) * 1000)))
    timers.push(setTimeout(() => resolve(barEnd), Math.max(0, (barEnd - RESOLVE_AHEAD_SECONDS - ctx.currentTime) * 1000)))
    signal?.addEventListener('abort', () => {
      timers.forEach(clearTimeout)
      reject(new DOMException('Count-in cancelled', 'AbortError'))
    })
  })
}
