import { describe, expect, it } from 'vitest'
import {
  CROSSFADE_SECONDS,
  PIECE_SECONDS,
  SLOT_SECONDS,
  fadeIn,
  fadeOut,
  longestSilenceMs,
  mixProgramme,
  nowPlaying,
  pieceGain,
  slotAt,
} from './programme.ts'

const RATE = 8000

/** A piece like the composer's: sound with a silent lead-in and a release tail that dies out. */
function piece(freq: number, leadIn: number, tail: number): Float32Array {
  const out = new Float32Array(Math.round(PIECE_SECONDS * RATE))
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE
    const env = t < leadIn ? 0 : t > PIECE_SECONDS - tail ? 0 : 0.5
    out[i] = env * Math.sin(2 * Math.PI * freq * t)
  }
  return out
}

describe('CUBE Radio programme', () => {
  it('two listeners joining 10 s apart hear the same piece at the same wall-clock position', () => {
    const t0 = Date.UTC(2026, 10, 23, 14, 3, 20)
    const a = nowPlaying(t0)
    const b = nowPlaying(t0 + 10_000)
    expect(b.slot).toEqual(a.slot)
    expect(b.position - a.position).toBeCloseTo(10, 6)
    // A later join lands mid-piece, and the next slot is the next piece of the same day.
    expect(a.position).toBeGreaterThan(0)
    expect(a.position).toBeLessThan(SLOT_SECONDS)
    expect(slotAt(t0, {}, 1).index).toBe(a.slot.index + 1)
  })

  it('is a per-day programme: pieces differ across slots and days, a steer is its own channel', () => {
    const t0 = Date.UTC(2026, 10, 23, 0, 0, 30)
    const slots = Array.from({ length: 20 }, (_, k) => slotAt(t0 + k * SLOT_SECONDS * 1000).recipe)
    expect(new Set(slots.map((r) => r.description)).size).toBe(20)
    expect(new Set(slots.map((r) => r.genre)).size).toBeGreaterThan(3)
    expect(slotAt(t0 + 86_400_000).recipe).not.toEqual(slotAt(t0).recipe)
    const jazz = slotAt(t0, { genre: 'jazz' }).recipe
    expect(jazz.genre).toBe('jazz')
    expect(slotAt(t0 + 5000, { genre: 'jazz' }).recipe).toEqual(jazz)
  })

  it('crossfades with equal power over 4–8 s', () => {
    expect(CROSSFADE_SECONDS).toBeGreaterThanOrEqual(4)
    expect(CROSSFADE_SECONDS).toBeLessThanOrEqual(8)
    for (let f = 0; f <= 1; f += 0.1) expect(fadeIn(f) ** 2 + fadeOut(f) ** 2).toBeCloseTo(1, 9)
    expect(pieceGain(0)).toBe(0)
    expect(pieceGain(CROSSFADE_SECONDS)).toBeCloseTo(1, 9)
    expect(pieceGain(SLOT_SECONDS + CROSSFADE_SECONDS)).toBeCloseTo(0, 9)
  })

  it('plays continuously across piece boundaries: no silence over 50 ms in the mixed output', () => {
    // Each piece starts 1.5 s late and ends 2 s early: without the overlap there would be a 3.5 s hole.
    const pieces = [piece(220, 1.5, 2), piece(330, 1.5, 2), piece(440, 1.5, 2)]
    const out = mixProgramme(pieces, RATE)
    expect(longestSilenceMs(out, RATE, 2, SLOT_SECONDS * 2 + 1)).toBeLessThanOrEqual(50)
    // The check itself sees a gap when the pieces are butted end to end without the crossfade.
    const butted = new Float32Array(out.length)
    pieces.forEach((p, k) => butted.set(p.subarray(0, SLOT_SECONDS * RATE), k * SLOT_SECONDS * RATE))
    expect(longestSilenceMs(butted, RATE, 2, SLOT_SECONDS * 2 + 1)).toBeGreaterThan(1000)
  })
})

describe('station recipe ids', () => {
  it('are the generator share ids, so /track/{id} recreates the piece', async () => {
    const { shareId, recipeFromShareId } = await import('../../features/generator/share-link.ts')
    const { recipeId } = await import('./programme.ts')
    const recipe = slotAt(Date.UTC(2026, 10, 23, 9, 0, 0)).recipe
    expect(recipeId(recipe)).toBe(shareId(recipe))
    expect(recipeFromShareId(recipeId(recipe))).toEqual(recipe)
  })
})
