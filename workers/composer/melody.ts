import type { Rng } from './prng.ts'
import type { BarChord, NoteEvent, Section } from './score.ts'
import { degreeToMidi, type Key } from './theory.ts'
import { roundTime, stepTime } from './timing.ts'

// Melodies are built from two-bar motifs (a rhythm plus a contour in scale steps) that are restated
// and varied across a section and snapped to the bar's chord on strong beats, so they sound composed
// rather than random while staying in the scale by construction.

export interface Motif {
  /** Onset step (0–31 over two bars) and length in sixteenths. */
  notes: { step: number; length: number }[]
  /** Scale-degree movement before each note. */
  contour: number[]
}

const LEAD_OCTAVE = 60
const LOW = 3
const HIGH = 12

export function makeMotif(rng: Rng, energy: number, sparse: boolean, cadence: boolean): Motif {
  const grid = sparse ? 4 : 2
  const onsets: number[] = []
  for (let s = 0; s < 32; s += grid) {
    const strong = s % 8 === 0
    const p = strong ? 0.45 + 0.5 * energy : 0.12 + 0.5 * energy
    if (s === 0 || rng.chance(p)) onsets.push(s)
  }
  // Breathe at the end of a phrase, except a cadence which lands on its last strong beat.
  const body = onsets.filter((s) => s < (cadence ? 24 : 28) || rng.chance(0.25))
  if (cadence && !body.includes(24)) body.push(24)
  for (const s of [8, 16, 4, 12, 20]) if (body.length < 4 && !body.includes(s)) body.push(s)
  body.sort((a, b) => a - b)
  const notes = body.map((step, i) => {
    const nextStep = body[i + 1] ?? 32
    const length = cadence && i === body.length - 1 ? 32 - step : Math.min(nextStep - step, sparse ? 16 : 8)
    return { step, length }
  })
  const moves = energy > 0.6 ? [-2, -1, -1, 1, 1, 2, 3, -3, 0] : [-1, -1, 1, 1, 0, 2, -2]
  return { notes, contour: notes.map(() => rng.pick(moves)) }
}

/** Vary a motif: keep the rhythm, change the last two moves. */
export function varyMotif(m: Motif, rng: Rng): Motif {
  const contour = [...m.contour]
  for (let i = Math.max(0, contour.length - 2); i < contour.length; i++) contour[i] = rng.pick([-2, -1, 1, 2])
  return { notes: m.notes, contour }
}

function nearestChordDegree(degree: number, chord: BarChord, key: Key): number {
  for (const delta of [0, -1, 1, -2, 2, -3, 3]) {
    const pc = degreeToMidi(key, degree + delta, 0) % 12
    if (chord.pitchClasses.includes(pc)) return degree + delta
  }
  return degree
}

function reflect(degree: number, low: number, high: number): number {
  let d = degree
  if (d > high) d = high - (d - high)
  if (d < low) d = low + (low - d)
  return Math.min(high, Math.max(low, d))
}

export interface MelodyContext {
  key: Key
  swing: number
  stepSeconds: number
  barSeconds: number
}

/** Realise motifs over a section, two bars per phrase: A A' A B (chorus transposed up a third). */
export function sectionMelody(
  ctx: MelodyContext,
  section: Section,
  chords: BarChord[],
  motifs: { a: Motif; b: Motif },
  rng: Rng,
  lift: number,
): NoteEvent[] {
  if (!section.layers.melody) return []
  const out: NoteEvent[] = []
  let degree = 7 + lift
  const phrases = Math.max(1, Math.floor(section.bars / 2))
  for (let p = 0; p < phrases; p++) {
    const motif = p % 4 === 3 ? motifs.b : p % 4 === 1 ? varyMotif(motifs.a, rng) : motifs.a
    const phraseBar = section.startBar + p * 2
    degree = 7 + lift
    motif.notes.forEach(({ step, length }, i) => {
      const bar = phraseBar + Math.floor(step / 16)
      const chord = chords[bar]
      if (!chord) return
      degree = reflect(degree + (motif.contour[i] ?? 0), LOW + lift, HIGH + lift)
      if (step % 8 === 0) degree = nearestChordDegree(degree, chord, ctx.key)
      const last = p === phrases - 1 && i === motif.notes.length - 1 && section.name === 'chorus'
      if (last) degree = 7 + (lift > 0 ? 0 : 0)
      const barStart = bar * ctx.barSeconds
      const time = barStart + stepTime(step % 16, ctx.stepSeconds, ctx.swing)
      out.push({
        time: roundTime(time),
        duration: roundTime(length * ctx.stepSeconds * 0.92),
        midi: degreeToMidi(ctx.key, degree, LEAD_OCTAVE),
        velocity: (0.6 + 0.3 * section.energy) * (step % 8 === 0 ? 1 : 0.85),
      })
    })
  }
  return out
}
