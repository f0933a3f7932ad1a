// A part's notes over its pool of monophonic voices, as note triggers for score-schedule.ts.
import type { NoteEvent } from '../../workers/composer/index.ts'
import type { Voice } from './score-instruments.ts'
import type { Trigger } from './score-schedule.ts'

const midiToFrequency = (midi: number): number => 440 * Math.pow(2, (midi - 69) / 12)

/**
 * Assigns notes to a pool of monophonic voices: a free voice if any, otherwise the one that frees
 * first. With `carry`, a note that began before `from` and still sounds starts at `from` for the rest
 * of its length (its attack falls in a pre-roll that is dropped). The triggers are returned in the
 * order they are to be made, not made.
 */
export function playOnPool(pool: Voice[], notes: NoteEvent[], shift: number, from: number, to: number, carry: boolean): Trigger[] {
  const triggers: Trigger[] = []
  const busyUntil = pool.map(() => -Infinity)
  for (const n of notes) {
    if (n.time >= to) continue
    let start = n.time
    let duration = n.duration
    if (start < from) {
      if (!carry || start + duration <= from) continue
      duration = start + duration - from
      start = from
    }
    const t = start - shift
    let idx = busyUntil.findIndex((end) => end <= t + 1e-6)
    if (idx < 0) idx = busyUntil.indexOf(Math.min(...busyUntil))
    busyUntil[idx] = t + duration
    const voice = pool[idx]!
    const frequency = midiToFrequency(n.midi)
    const length = Math.max(0.02, Math.min(duration, to - start))
    const at = Math.max(0, t)
    const velocity = Math.min(1, n.velocity)
    triggers.push({ at, fire: () => voice.trigger(frequency, length, at, velocity) })
  }
  return triggers
}
