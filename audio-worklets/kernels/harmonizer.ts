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
 *
 * `process` runs a block (what the audio thread calls), the ratios' glide first, then each voice's
 * shifter over the block; `next`, `feed` and `update` are single steps of it. No double is handed
 * to a call in the block (V8 boxes one passed to a call it does not inline): the state is in a
 * Float64Array.
 */
import { DelayShifter } from './delay-shifter.ts'
import { RENDER_QUANTUM_FRAMES } from '../render-quantum.ts'

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
  diatonicIntervalsAt(Float64Array.of(midi), tonic, mode, out)
}

/**
 * diatonicIntervals(pitch[0], …), what the audio thread calls: it takes no double (V8 boxes one
 * passed to a call it does not inline).
 */
export function diatonicIntervalsAt(pitch: Float64Array, tonic: number, mode: KeyMode, out: Float64Array | number[]): void {
  const midi = pitch[0]!
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

// The state, in `state`.
const TARGET3 = 0
const TARGET5 = 1
const RATIO3 = 2
const RATIO5 = 3
const LAST_VOICED = 4
const NOW = 5
/** The pitch `updateFromState` reads. */
const HZ = 6

export class Harmonizer {
  /** Current target intervals in semitones [third, fifth]. */
  readonly intervals = new Float64Array(2)
  private readonly third: DelayShifter
  private readonly fifth: DelayShifter
  private readonly state = new Float64Array(7)
  private readonly pitch = new Float64Array(1)
  private tonic = 0
  private mode: KeyMode = 0
  private readonly hold: number = 0
  private readonly glide: number = 0
  // A block's per-sample ratios and each voice's output.
  private readonly ratio3: Float64Array
  private readonly ratio5: Float64Array
  private readonly out3: Float64Array
  private readonly out5: Float64Array
  // One sample's arguments for `next` and `feed`.
  private readonly one = new Float64Array(1)
  private readonly onePeriod = new Float64Array(1)
  private readonly oneOn = new Float64Array(1)
  private readonly oneOut = new Float64Array(1)
  private readonly oneEstimated = new Uint8Array(1)

  constructor(sampleRate: number, blockFrames = RENDER_QUANTUM_FRAMES) {
    this.third = new DelayShifter(sampleRate)
    this.fifth = new DelayShifter(sampleRate)
    this.hold = HOLD_SECONDS * sampleRate
    this.glide = 1 - Math.exp(-1 / (GLIDE_SECONDS * sampleRate))
    this.ratio3 = new Float64Array(blockFrames)
    this.ratio5 = new Float64Array(blockFrames)
    this.out3 = new Float64Array(blockFrames)
    this.out5 = new Float64Array(blockFrames)
    // Until a key or a pitch arrives: C major's tonic chord (+4, +7).
    const st = this.state
    st[TARGET3] = st[RATIO3] = 2 ** (4 / 12)
    st[TARGET5] = st[RATIO5] = 2 ** (7 / 12)
    st[LAST_VOICED] = -Infinity
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
    if (this.state[NOW]! - this.state[LAST_VOICED]! > this.hold) this.fallBack()
  }

  /** A new pitch estimate of the input (Hz, 0 = unvoiced), at sample time `now` of this voice. */
  update(hz: number): void {
    this.state[HZ] = hz
    this.updateFromState()
  }

  private updateFromState(): void {
    const st = this.state
    const hz = st[HZ]!
    if (hz > 0) {
      this.pitch[0] = 69 + 12 * Math.log2(hz / 440)
      diatonicIntervalsAt(this.pitch, this.tonic, this.mode, this.intervals)
      st[TARGET3] = 2 ** (this.intervals[0]! / 12)
      st[TARGET5] = 2 ** (this.intervals[1]! / 12)
      st[LAST_VOICED] = st[NOW]!
    } else if (st[NOW]! - st[LAST_VOICED]! > this.hold) {
      this.fallBack()
    }
  }

  /** Jumps the voices' ratios to their targets. */
  snap(): void {
    this.state[RATIO3] = this.state[TARGET3]!
    this.state[RATIO5] = this.state[TARGET5]!
  }

  /** Feeds one input sample (`period` of the input in samples, 0 = unknown); returns both voices summed. */
  next(x: number, period: number): number {
    this.one[0] = x
    this.onePeriod[0] = period
    this.oneOn[0] = 1
    this.oneEstimated[0] = 0
    this.process(this.one, this.oneEstimated, this.onePeriod, this.onePeriod, this.oneOn, this.oneOut, 1)
    return this.oneOut[0]!
  }

  /** Feeds one input sample without producing the voices (keeps their history current while off). */
  feed(x: number): void {
    this.one[0] = x
    this.oneOn[0] = 0
    this.oneEstimated[0] = 0
    this.process(this.one, this.oneEstimated, this.onePeriod, this.onePeriod, this.oneOn, this.oneOut, 1)
  }

  /**
   * A block of input x: where estimated[i] is 1, a new pitch estimate hz[i] arrives first (as
   * `update`); then where on[i] > 0 both voices summed go to out[i] (as `next`, the input's period
   * in period[i]), elsewhere the sample only feeds them (as `feed`, out[i] left as it is).
   */
  process(
    x: Float64Array,
    estimated: Uint8Array,
    hz: Float64Array,
    period: Float64Array,
    on: Float64Array,
    out: Float64Array,
    frames: number,
  ): void {
    if (frames > this.ratio3.length) throw new RangeError(`A harmonizer block holds at most ${this.ratio3.length} frames`)
    const st = this.state
    const g = this.glide
    const ratio3 = this.ratio3
    const ratio5 = this.ratio5
    for (let i = 0; i < frames; i++) {
      if (estimated[i] === 1) {
        st[HZ] = hz[i]!
        this.updateFromState()
      }
      st[NOW]!++
      if (!(on[i]! > 0)) continue
      st[RATIO3]! += g * (st[TARGET3]! - st[RATIO3]!)
      st[RATIO5]! += g * (st[TARGET5]! - st[RATIO5]!)
      ratio3[i] = st[RATIO3]!
      ratio5[i] = st[RATIO5]!
    }
    const out3 = this.out3
    const out5 = this.out5
    this.third.process(x, x, ratio3, period, on, out3, out3, frames)
    this.fifth.process(x, x, ratio5, period, on, out5, out5, frames)
    for (let i = 0; i < frames; i++) if (on[i]! > 0) out[i] = out3[i]! + out5[i]!
  }

  private fallBack(): void {
    // tonicIntervals' values, written out: this runs on the audio thread and must not allocate.
    const third = this.mode === 1 ? 3 : 4
    const fifth = 7
    this.intervals[0] = third
    this.intervals[1] = fifth
    this.state[TARGET3] = 2 ** (third / 12)
    this.state[TARGET5] = 2 ** (fifth / 12)
  }
}
