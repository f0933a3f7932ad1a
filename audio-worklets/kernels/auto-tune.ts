/**
 * Auto Tune: the tracked pitch (pitch-tracker.ts, every ~6 ms) is pulled to the nearest note of
 * the key's scale; the correction ratio glides there with the retune time (0 ms = hard snap) and
 * a pitch-synchronous delay-line shifter (delay-shifter.ts) applies it sample by sample.
 * Unvoiced input (noise, drums) gets ratio 1, where the shifter settles onto one tap: it comes
 * out as a plain delayed copy and stays noise.
 *
 * `Retuner` is the decision part alone (pitch in, ratio out), so the remix tools chain can drive
 * one stereo shifter from one tracker; `AutoTune` is the mono whole.
 */
import { DelayShifter } from './delay-shifter.ts'
import { MAJOR_STEPS, MINOR_STEPS, type KeyMode } from './harmonizer.ts'
import { PitchTracker } from './pitch-tracker.ts'

export interface AutoTuneOptions {
  sampleRate: number
  /** Pitch classes allowed (0 = C). */
  scale: number[]
  /** Correction time in ms (0 = fastest). */
  retuneMs: number
}

/** A note keeps its target until the pitch is this far (semitones) past the midpoint to the next. */
const HYSTERESIS = 0.1
/** Unvoiced estimates in a row before the correction lets go (a consonant is not a new note). */
const RELEASE_HOPS = 5

/** 12-bit mask of the allowed pitch classes. */
export function scaleMask(pitchClasses: readonly number[]): number {
  let mask = 0
  for (const p of pitchClasses) mask |= 1 << (((Math.round(p) % 12) + 12) % 12)
  return mask
}

/** scaleMask of a key's scale (natural minor for minor), without allocating. */
export function keyMask(tonic: number, mode: KeyMode): number {
  const steps = mode === 1 ? MINOR_STEPS : MAJOR_STEPS
  const t = ((Math.round(tonic) % 12) + 12) % 12
  let mask = 0
  for (let i = 0; i < 7; i++) mask |= 1 << ((t + steps[i]!) % 12)
  return mask
}

/** Nearest MIDI note (fractional input) whose pitch class is in `mask`. */
export function nearestScaleNote(midi: number, mask: number): number {
  const at = Float64Array.of(midi)
  return nearestScaleNoteAt(at, mask)
}

/**
 * nearestScaleNote(pitch[0], mask), what the audio thread calls: it takes no double (V8 boxes one
 * passed to a call it does not inline) and returns a whole number (a small integer, not boxed).
 */
export function nearestScaleNoteAt(pitch: Float64Array, mask: number): number {
  const midi = pitch[0]!
  if ((mask & 0xfff) === 0) return Math.round(midi)
  let best = Math.round(midi),
    bestDist = Infinity
  for (let n = Math.floor(midi) - 6; n <= Math.ceil(midi) + 6; n++) {
    if (!(mask & (1 << (((n % 12) + 12) % 12)))) continue
    const dist = Math.abs(n - midi)
    if (dist < bestDist) {
      bestDist = dist
      best = n
    }
  }
  return best
}

export class Retuner {
  /** The correction ratio in effect (output pitch / input pitch). */
  ratio = 1
  target = 1
  private mask: number = 0
  private coefficient = 1
  private note = Number.NaN
  private unvoiced = 0
  private readonly pitch = new Float64Array(1)
  private readonly one = new Float64Array(1)

  constructor(
    private readonly sampleRate: number,
    scale: readonly number[],
    retuneMs: number,
  ) {
    this.mask = scaleMask(scale)
    this.setRetuneMs(retuneMs)
  }

  setMask(mask: number): void {
    this.mask = mask
    this.note = Number.NaN
  }

  /** One-pole glide time constant of the correction (0 = the ratio jumps at each estimate). */
  setRetuneMs(ms: number): void {
    this.coefficient = ms > 0 ? 1 - Math.exp(-1000 / (ms * this.sampleRate)) : 1
  }

  /** `update` with the estimate hz[index] (a call that takes no double, so none is boxed on the audio thread). */
  updateAt(estimates: Float64Array, index: number): void {
    const hz = estimates[index]!
    if (!(hz > 0)) {
      if (++this.unvoiced >= RELEASE_HOPS) {
        this.target = 1
        this.note = Number.NaN
      }
      return
    }
    this.unvoiced = 0
    const midi = 69 + 12 * Math.log2(hz / 440)
    this.pitch[0] = midi
    let note = nearestScaleNoteAt(this.pitch, this.mask)
    // Near the midpoint between two notes, stay on the current one (vibrato must not flip notes).
    const current = this.note
    if (note !== current && !Number.isNaN(current) && Math.abs(midi - current) < Math.abs(midi - note) + HYSTERESIS) note = current
    this.note = note
    this.target = 2 ** ((note - midi) / 12)
  }

  /** A new pitch estimate (Hz, 0 = unvoiced). */
  update(hz: number): void {
    this.one[0] = hz
    this.updateAt(this.one, 0)
  }

  /** The ratio for the next sample. */
  next(): number {
    this.advance()
    return this.ratio
  }

  /** Moves `ratio` on by one sample (`next` without returning it). */
  advance(): void {
    if (this.ratio === this.target) return
    const c = this.coefficient
    this.ratio += c * (this.target - this.ratio)
    if (Math.abs(this.target - this.ratio) < 1e-7) this.ratio = this.target
  }

  snap(): void {
    this.ratio = this.target
  }
}

export class AutoTune {
  private readonly tracker: PitchTracker
  private readonly retuner: Retuner
  private readonly shifter: DelayShifter

  constructor(options: AutoTuneOptions) {
    this.tracker = new PitchTracker(options.sampleRate)
    this.retuner = new Retuner(options.sampleRate, options.scale, options.retuneMs)
    this.shifter = new DelayShifter(options.sampleRate)
  }

  process(input: Float32Array, output: Float32Array, frames = input.length): void {
    const tracker = this.tracker
    const retuner = this.retuner
    for (let n = 0; n < frames; n++) {
      const x = input[n]!
      if (tracker.push(x)) retuner.update(tracker.hz)
      output[n] = this.shifter.next(x, retuner.next(), tracker.period)
    }
  }
}
