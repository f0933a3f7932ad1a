/**
 * Harmonize: two diatonic harmony voices in the track's key, a third and a fifth above the lead.
 *
 * While the tracked pitch is voiced, the voices sit 2 and 4 scale steps above the scale note
 * nearest to it (in A major, A gets C# and E; B gets D and F#), shifted from the lead by that
 * interval, so they follow the lead's own intonation and never beat against it. When the input is
 * unvoiced or polyphonic (no single pitch), the last voiced intervals are held ~150 ms (a
 * consonant or a breath should not flip the harmony), then the voices fall back to the key's tonic
 * chord: third +4 (major) / +3 (minor), fifth +7. Each voice is a DelayShifter; its ratio glides
 * (~15 ms), so interval changes bend instead of jumping.
 */
import { DelayShifter } from './delay-shifter.ts'

export const MAJOR_STEPS = [0, 2, 4, 5, 7, 9, 11] as const
export const MINOR_STEPS = [0, 2, 3, 5, 7, 8, 10] as const

/** 0 = major, 1 = minor. */
export type KeyMode = 0 | 1

/** Fallback intervals in semitones (the tonic chord's third and fifth). */
export function tonicIntervals(mode: KeyMode): [third: number, fifth: number] {
  return [mode === 1 ? 3 : 4, 7]
}

/**
 * Semitones from the scale note nearest `midi` up to the notes 2 and 4 scale steps above it,
 * written into `out` [third, fifth] (no allocation). Ties go to the lower note.
 */
export function diatonicIntervals(midi: number, tonic: number, mode: KeyMode, out: Float64Array | number[]): void {
  const steps = mode === 1 ? MINOR_STEPS : MAJOR_STEPS
  const rel = midi - tonic
  const octave = Math.floor(rel / 12)
  const within = rel - 12 * octave
  let degree = 0
  let best = Infinity
  // Candidates: the seven degrees and the tonic an octave up (nearest from just below 12).
  for (let d = 0; d <= 7; d++) {
    const pitch = d === 7 ? 12 : steps[d]!
    const dist = Math.abs(within - pitch)
    if (dist < best - 1e-9) {
      best = dist
      degree = d % 7
    }
  }
  const base = steps[degree]!
  out[0] = steps[(degree + 2) % 7]! - base + (degree + 2 >= 7 ? 12 : 0)
  out[1] = steps[(degree + 4) % 7]! - base + (degree + 4 >= 7 ? 12 : 0)
}

const HOLD_SECONDS = 0.15
const GLIDE_SECONDS = 0.015

export class Harmonizer {
  /** Current target intervals in semitones [third, fifth]. */
  readonly intervals = new Float64Array(2)
  private readonly third: DelayShifter
  private readonly fifth: DelayShifter
  // Until a key or a pitch arrives: C major's tonic chord (+4, +7).
  private target3 = 2 ** (4 / 12)
  private target5 = 2 ** (7 / 12)
  private ratio3 = this.target3
  private ratio5 = this.target5
  private tonic = 0
  private mode: KeyMode = 0
  private lastVoiced = -Infinity
  private now = 0
  private readonly hold: number
  private readonly glide: number

  constructor(sampleRate: number) {
    this.third = new DelayShifter(sampleRate)
    this.fifth = new DelayShifter(sampleRate)
    this.hold = HOLD_SECONDS * sampleRate
    this.glide = 1 - Math.exp(-1 / (GLIDE_SECONDS * sampleRate))
    this.fallBack()
  }

  /** Delay of the voices against their input at a steady ratio, in samples. */
  get latency(): number {
    return this.third.latency
  }

  setKey(tonic: number, mode: KeyMode): void {
    const t = ((Math.round(tonic) % 12) + 12) % 12
    if (t === this.tonic && mode === this.mode) return
    this.tonic = t
    this.mode = mode
    if (this.now - this.lastVoiced > this.hold) this.fallBack()
  }

  /** A new pitch estimate of the input (Hz, 0 = unvoiced), at sample time `now` of this voice. */
  update(hz: number): void {
    if (hz > 0) {
      diatonicIntervals(69 + 12 * Math.log2(hz / 440), this.tonic, this.mode, this.intervals)
      this.target3 = 2 ** (this.intervals[0]! / 12)
      this.target5 = 2 ** (this.intervals[1]! / 12)
      this.lastVoiced = this.now
    } else if (this.now - this.lastVoiced > this.hold) {
      this.fallBack()
    }
  }

  /** Jumps the voices' ratios to their targets. */
  snap(): void {
    this.ratio3 = this.target3
    this.ratio5 = this.target5
  }

  /** Feeds one input sample (`period` of the input in samples, 0 = unknown); returns both voices summed. */
  next(x: number, period: number): number {
    this.now++
    const g = this.glide
    this.ratio3 += g * (this.target3 - this.ratio3)
    this.ratio5 += g * (this.target5 - this.ratio5)
    return this.third.next(x, this.ratio3, period) + this.fifth.next(x, this.ratio5, period)
  }

  /** Feeds one input sample without producing the voices (keeps their history current while off). */
  feed(x: number): void {
    this.now++
    this.third.feed(x)
    this.fifth.feed(x)
  }

  private fallBack(): void {
    // tonicIntervals' values, written out: this runs on the audio thread and must not allocate.
    const third = this.mode === 1 ? 3 : 4
    const fifth = 7
    this.intervals[0] = third
    this.intervals[1] = fifth
    this.target3 = 2 ** (third / 12)
    this.target5 = 2 ** (fifth / 12)
  }
}
