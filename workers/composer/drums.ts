import type { Rng } from './prng.ts'
import type { DrumHit, DrumPattern, DrumVoice, Section } from './score.ts'
import type { DrumKit } from './styles.ts'
import { roundTime, stepTime } from './timing.ts'

const steps = (hits: Record<number, number>): number[] => Array.from({ length: 16 }, (_, i) => hits[i] ?? 0)
const every = (n: number, v: number, offset = 0): number[] =>
  Array.from({ length: 16 }, (_, i) => ((i - offset) % n === 0 && i >= offset ? v : 0))

/** The kit's groove for a verse bar, with seeded variations so two pieces in one genre still differ. */
export function drumPattern(kit: DrumKit, rng: Rng, energy: number): DrumPattern {
  const empty = steps({})
  const p: DrumPattern = { steps: 16, kick: empty, snare: empty, hat: empty, openHat: empty, ride: empty }
  switch (kit) {
    case 'electronic':
      p.kick = every(4, 1)
      p.snare = steps({ 4: 0.9, 12: 0.9 })
      p.hat = energy > 0.6 ? every(1, 0.35) : every(2, 0.4)
      p.openHat = every(4, 0.5, 2)
      break
    case 'pop':
      p.kick = steps({ 0: 1, 7: 0.7, 8: 0.9 })
      p.snare = steps({ 4: 0.9, 12: 0.9 })
      p.hat = every(2, 0.45)
      break
    case 'rock':
      p.kick = steps({ 0: 1, 8: 0.95, 10: 0.8 })
      p.snare = steps({ 4: 1, 12: 1 })
      p.hat = every(2, 0.55)
      break
    case 'boom-bap':
      p.kick = steps({ 0: 1, 7: 0.75, 10: 0.9 })
      p.snare = steps({ 4: 0.95, 12: 0.95 })
      p.hat = every(2, 0.4)
      break
    case 'brush':
      p.kick = steps({ 0: 0.45, 8: 0.4 })
      p.snare = steps({ 4: 0.35, 12: 0.35 })
      p.ride = steps({ 0: 0.6, 4: 0.55, 7: 0.45, 8: 0.6, 12: 0.55, 15: 0.45 })
      break
    case 'light':
      p.kick = steps({ 0: 0.7, 8: 0.6 })
      p.snare = steps({ 4: 0.45, 12: 0.45 })
      p.hat = every(2, 0.25)
      break
    case 'metal':
      p.kick = energy > 0.8 ? every(1, 0.9) : every(2, 0.9)
      p.snare = steps({ 4: 1, 12: 1 })
      p.hat = every(2, 0.5)
      p.ride = every(4, 0.4)
      break
    case 'soft':
      p.kick = steps({ 0: 0.5 })
      p.hat = steps({ 6: 0.15, 14: 0.2 })
      break
    case 'none':
      break
  }
  if (kit !== 'none' && kit !== 'soft') {
    // A seeded extra kick and ghost snare give each piece its own groove.
    const extraKick = rng.pick([3, 6, 11, 14])
    if ((p.kick[extraKick] ?? 0) === 0 && rng.chance(0.7)) p.kick = p.kick.map((v, i) => (i === extraKick ? 0.6 : v))
    const ghost = rng.pick([2, 7, 9, 15])
    if ((p.snare[ghost] ?? 0) === 0 && rng.chance(0.6)) p.snare = p.snare.map((v, i) => (i === ghost ? 0.25 : v))
  }
  return p
}

const VOICES: [keyof Omit<DrumPattern, 'steps'>, DrumVoice][] = [
  ['kick', 'kick'],
  ['snare', 'snare'],
  ['hat', 'hat'],
  ['openHat', 'openHat'],
  ['ride', 'ride'],
]

export function drumBarHits(
  pattern: DrumPattern,
  kit: DrumKit,
  section: Section,
  barInSection: number,
  swing: number,
  stepSeconds: number,
  barStart: number,
): DrumHit[] {
  if (!section.layers.drums || kit === 'none') return []
  const out: DrumHit[] = []
  const lastBar = barInSection === section.bars - 1
  const fill = lastBar && section.name !== 'outro' && kit !== 'soft' && kit !== 'brush'
  const scale = 0.55 + 0.45 * section.energy
  for (const [lane, voice] of VOICES) {
    if (voice === 'kick' && !section.layers.kick) continue
    // Sparse sections keep only the hats and ride.
    if (voice === 'snare' && !section.layers.kick && section.name !== 'bridge') continue
    pattern[lane].forEach((v, step) => {
      if (v <= 0) return
      if (fill && voice === 'snare' && step >= 12) return
      out.push({ time: roundTime(barStart + stepTime(step, stepSeconds, swing)), voice, velocity: v * scale })
    })
  }
  if (fill && (section.layers.kick || section.name === 'bridge')) {
    for (let s = 12; s < 16; s++)
      out.push({ time: roundTime(barStart + stepTime(s, stepSeconds, swing)), voice: 'snare', velocity: (0.5 + (s - 12) * 0.15) * scale })
  }
  if (barInSection === 0 && (section.name === 'chorus' || (section.name === 'verse' && section.startBar > 0)) && kit !== 'soft') {
    out.push({ time: roundTime(barStart), voice: 'crash', velocity: 0.7 * scale })
  }
  return out
}
