/**
 * When and how each clip plays, as numbers: the one plan both the live graph's native nodes
 * (schedule-clips.ts) and the export's workers (workers/clip-render.ts) carry out, so the two
 * cannot drift apart.
 *
 *   planClips(clips, audioSeconds, when, position, sampleRate) → ClipPlay[]
 *     `when`: the context time that corresponds to timeline `position` (seconds).
 * Fades are equal-power curves; starting mid-clip plans only the part of each fade still ahead,
 * so a seek lands on the same gain a full play would have.
 */
import type { ClipCurve, ClipPlay } from '../../../workers/clip-render.ts'
import { clipEnd, fadeInGain, fadeOutGain, isLooped, sourceTimeAt, type Clip } from './clip.ts'

/** Points per fade curve: the browser interpolates linearly between them (under 0.01 dB off at 256). */
const CURVE_POINTS = 256

function curve(gain: number, shape: (u: number) => number, u0: number, u1: number): Float32Array {
  const out = new Float32Array(CURVE_POINTS)
  for (let i = 0; i < CURVE_POINTS; i++) out[i] = gain * shape(u0 + ((u1 - u0) * i) / (CURVE_POINTS - 1))
  return out
}

export function planClips(clips: readonly Clip[], audioSeconds: number, when: number, position: number, sampleRate: number): ClipPlay[] {
  const plays: ClipPlay[] = []
  for (const c of clips) {
    if (position >= clipEnd(c) || c.sourceStart >= audioSeconds) continue
    const into = Math.max(0, position - c.start)
    const startAt = when + Math.max(0, c.start - position)
    const remaining = c.length - into
    const curves: ClipCurve[] = []
    let gain0 = c.fadeIn > 0 && into < c.fadeIn ? c.gain * fadeInGain(into / c.fadeIn) : c.gain
    if (c.fadeIn > 0 && into < c.fadeIn)
      curves.push({ start: startAt, duration: c.fadeIn - into, values: curve(c.gain, fadeInGain, into / c.fadeIn, 1) })
    if (c.fadeOut > 0) {
      const outStart = c.length - c.fadeOut
      // A fade-out that starts where the fade-in ends would touch it; the curves must not overlap.
      const gap = c.fadeIn > 0 && into < c.fadeIn && outStart - c.fadeIn < 1 / sampleRate ? 1 / sampleRate : 0
      if (into <= outStart)
        curves.push({ start: startAt + (outStart - into) + gap, duration: c.fadeOut - gap, values: curve(c.gain, fadeOutGain, 0, 1) })
      else {
        const u0 = (into - outStart) / c.fadeOut
        gain0 = c.gain * fadeOutGain(u0)
        curves.push({ start: startAt, duration: remaining, values: curve(c.gain, fadeOutGain, u0, 1) })
      }
    }
    plays.push({
      startAt,
      stopAt: startAt + remaining,
      offset: sourceTimeAt(c, into),
      loop: isLooped(c) ? { start: c.sourceStart, end: Math.min(c.sourceEnd, audioSeconds) } : null,
      gain0,
      curves,
    })
  }
  return plays
}
