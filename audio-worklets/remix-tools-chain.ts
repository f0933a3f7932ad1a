/**
 * The remix tools (Auto Tune, Harmonize) as one pure, allocation-free stereo block processor. The
 * AudioWorkletProcessor is a thin wrapper around it, and the export's worker render runs the same
 * class quantum by quantum (workers/remix-tools-render.ts), so the render equals the preview.
 *
 *   mid = (L + R) / 2 → ONE pitch tracker, read by both tools
 *   Auto Tune: one stereo delay shifter, so L and R get the same ratio and delays (the image
 *              stays put); the correction ratio comes from the Retuner
 *   Harmonize: a third and a fifth made from the (tuned) mid, added to both channels at harmonyMix
 *
 * Switching a tool crossfades it in or out over 20 ms (linear, so it ends exactly). With both
 * tools off and their fades done, the output is the input copied bit for bit; the delay lines and
 * the tracker are still fed, so a tool switched on starts from the real recent signal.
 *
 * Blockwise: the tracker runs over the block, then one control pass (estimates, correction ratio,
 * fades, glides) fills per-sample arrays, then the Auto Tune shifter and the harmony voices each
 * run over the block. Each kernel's per-sample arithmetic and order are what they were sample by
 * sample, so the output is bit for bit the same; no double crosses a call per sample (V8 boxes
 * those it does not inline, garbage on the audio thread), and every array is made here. Numeric
 * fields have initializers (`= 0`): one declared bare is defined as undefined first, and V8 then
 * boxes every double stored in it (audio-worklets/CONTEXT.md).
 */
import { keyMask, Retuner } from './kernels/auto-tune.ts'
import { DelayShifter } from './kernels/delay-shifter.ts'
import { Harmonizer } from './kernels/harmonizer.ts'
import { PitchTracker } from './kernels/pitch-tracker.ts'
import { onePoleCoefficient } from './kernels/smoothing.ts'
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'
import { harmonyVoiceGain, REMIX_TOOLS_PARAM_NAMES, REMIX_TOOLS_NEUTRAL, retuneMs, type RemixToolsParamName } from './remix-tools-params.ts'

const FADE_SECONDS = 0.02

export class RemixToolsChain {
  readonly tracker: PitchTracker
  readonly retuner: Retuner
  readonly tuner: DelayShifter
  readonly harmonizer: Harmonizer
  private autoTuneOn = false
  private harmonizeOn = false
  /** Crossfade positions 0 (off) … 1 (on). */
  private tuneFade = 0
  private harmonyFade = 0
  private readonly fadeStep: number = 0
  private voiceGain: number = 0
  private voiceTarget: number = 0
  private readonly voiceGlide: number = 0
  private tonic = 0
  private mode: 0 | 1 = 0
  private readonly last = new Float64Array(REMIX_TOOLS_PARAM_NAMES.length).fill(Number.NaN)
  /** The value `apply` applies. */
  private readonly incoming = new Float64Array(1)
  // A block's per-sample values, frame by frame.
  /** The input's mid, then the (tuned) mid the harmony voices read. */
  private readonly mid: Float64Array
  private readonly period: Float64Array
  private readonly hz: Float64Array
  private readonly estimated: Uint8Array
  /** The pitch handed to the harmonizer at an estimate. */
  private readonly harmonyHz: Float64Array
  private readonly ratio: Float64Array
  private readonly tuneFades: Float64Array
  private readonly harmonyFades: Float64Array
  /** The harmony voices' input period (the tuned one). */
  private readonly harmonyPeriod: Float64Array
  /** voiceGain × harmonyFade. */
  private readonly voiceGains: Float64Array
  private readonly tunedL: Float64Array
  private readonly tunedR: Float64Array
  private readonly yl: Float64Array
  private readonly yr: Float64Array
  private readonly voices: Float64Array

  constructor(sampleRate: number, blockFrames = RENDER_QUANTUM_FRAMES) {
    const block = () => new Float64Array(blockFrames)
    this.mid = block()
    this.period = block()
    this.hz = block()
    this.estimated = new Uint8Array(blockFrames)
    this.harmonyHz = block()
    this.ratio = block()
    this.tuneFades = block()
    this.harmonyFades = block()
    this.harmonyPeriod = block()
    this.voiceGains = block()
    this.tunedL = block()
    this.tunedR = block()
    this.yl = block()
    this.yr = block()
    this.voices = block()
    this.tracker = new PitchTracker(sampleRate)
    this.retuner = new Retuner(sampleRate, [], retuneMs(REMIX_TOOLS_NEUTRAL.retune))
    this.retuner.setMask(keyMask(0, 0))
    this.tuner = new DelayShifter(sampleRate, 2)
    this.harmonizer = new Harmonizer(sampleRate, blockFrames)
    this.fadeStep = 1 / (FADE_SECONDS * sampleRate)
    this.voiceGain = this.voiceTarget = harmonyVoiceGain(REMIX_TOOLS_NEUTRAL.harmonyMix)
    this.voiceGlide = onePoleCoefficient(0.01, sampleRate)
  }

  /** Applies one control (AudioParam units, see remix-tools-params.ts); unchanged values cost a comparison. */
  set(name: RemixToolsParamName, value: number): void {
    const index = REMIX_TOOLS_PARAM_NAMES.indexOf(name)
    if (index < 0) return
    this.incoming[0] = value
    this.apply(index)
  }

  /**
   * `set` of control REMIX_TOOLS_PARAM_NAMES[index] to values[0], what the audio thread calls each
   * quantum: it hands over no double (V8 boxes one passed to a call it does not inline).
   */
  setAt(index: number, values: Float32Array): void {
    this.incoming[0] = values[0]!
    this.apply(index)
  }

  private apply(index: number): void {
    const value = this.incoming[0]!
    if (this.last[index] === value || !Number.isFinite(value)) return
    this.last[index] = value
    const name = REMIX_TOOLS_PARAM_NAMES[index]!
    switch (name) {
      case 'autoTune':
        this.autoTuneOn = value >= 0.5
        break
      case 'harmonize':
        this.harmonizeOn = value >= 0.5
        break
      case 'retune':
        this.retuner.setRetuneMs(retuneMs(value))
        break
      case 'harmonyMix':
        this.voiceTarget = harmonyVoiceGain(value)
        break
      case 'tonic':
      case 'mode': {
        if (name === 'tonic') this.tonic = ((Math.round(value) % 12) + 12) % 12
        else this.mode = value >= 0.5 ? 1 : 0
        this.retuner.setMask(keyMask(this.tonic, this.mode))
        this.harmonizer.setKey(this.tonic, this.mode)
        break
      }
    }
  }

  /** Jumps every fade and glide to its target (before the first block, so initial values do not fade in). */
  snap(): void {
    this.tuneFade = this.autoTuneOn ? 1 : 0
    this.harmonyFade = this.harmonizeOn ? 1 : 0
    this.voiceGain = this.voiceTarget
    this.retuner.snap()
    this.harmonizer.snap()
  }

  /** Stereo, frames ≤ the block size; in place is fine (the output is written last). */
  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    if (frames > this.mid.length) throw new RangeError(`A remix tools block holds at most ${this.mid.length} frames`)
    const mid = this.mid
    const period = this.period
    const hz = this.hz
    const estimated = this.estimated
    const harmonyHz = this.harmonyHz
    const tuneFades = this.tuneFades
    const harmonyFades = this.harmonyFades
    const retuner = this.retuner
    for (let i = 0; i < frames; i++) mid[i] = 0.5 * (inL[i]! + inR[i]!)
    this.tracker.process(mid, frames, period, hz, estimated)
    const autoTuneOn = this.autoTuneOn
    if (!this.autoTuneOn && !this.harmonizeOn && this.tuneFade === 0 && this.harmonyFade === 0) {
      // Both tools off: the input copied; the estimates, the shifters' and the voices' histories move on.
      for (let i = 0; i < frames; i++) {
        outL[i] = inL[i]!
        outR[i] = inR[i]!
        tuneFades[i] = 0
        harmonyFades[i] = 0
        if (estimated[i] === 1) this.estimate(i, autoTuneOn)
      }
      const yl = this.yl
      const yr = this.yr
      for (let i = 0; i < frames; i++) {
        yl[i] = inL[i]!
        yr[i] = inR[i]!
      }
      this.tuner.process(yl, yr, this.ratio, period, tuneFades, this.tunedL, this.tunedR, frames)
      this.harmonizer.process(mid, estimated, harmonyHz, period, harmonyFades, this.voices, frames)
      return
    }
    const ratio = this.ratio
    const harmonyPeriod = this.harmonyPeriod
    const voiceGains = this.voiceGains
    const step = this.fadeStep
    const tuneTarget = this.autoTuneOn ? 1 : 0
    const harmonyTarget = this.harmonizeOn ? 1 : 0
    const voiceTarget = this.voiceTarget
    const voiceGlide = this.voiceGlide
    let tuneFade = this.tuneFade
    let harmonyFade = this.harmonyFade
    let voiceGain = this.voiceGain
    // The controls, sample by sample: estimates, the correction ratio, the fades and the voices' gain.
    for (let i = 0; i < frames; i++) {
      if (estimated[i] === 1) this.estimate(i, autoTuneOn)
      retuner.advance()
      const r = retuner.ratio
      ratio[i] = r
      if (tuneFade !== tuneTarget)
        tuneFade = tuneTarget > tuneFade ? Math.min(tuneTarget, tuneFade + step) : Math.max(tuneTarget, tuneFade - step)
      tuneFades[i] = tuneFade
      const p = period[i]!
      // The voices' input is the tuned mid, whose period the correction has shortened or lengthened.
      harmonyPeriod[i] = tuneFade > 0 && p > 0 ? p / r : p
      if (harmonyFade !== harmonyTarget)
        harmonyFade =
          harmonyTarget > harmonyFade ? Math.min(harmonyTarget, harmonyFade + step) : Math.max(harmonyTarget, harmonyFade - step)
      harmonyFades[i] = harmonyFade
      if (harmonyFade > 0) {
        voiceGain += voiceGlide * (voiceTarget - voiceGain)
        voiceGains[i] = voiceGain * harmonyFade
      }
    }
    this.tuneFade = tuneFade
    this.harmonyFade = harmonyFade
    this.voiceGain = Math.abs(this.voiceTarget - voiceGain) < 1e-7 ? this.voiceTarget : voiceGain
    // Auto Tune where its fade is above 0 (elsewhere the shifter is only fed).
    const tunedL = this.tunedL
    const tunedR = this.tunedR
    const yl = this.yl
    const yr = this.yr
    // The input as float64 (exactly), so the shifter's loads see one element kind only.
    for (let i = 0; i < frames; i++) {
      yl[i] = inL[i]!
      yr[i] = inR[i]!
    }
    this.tuner.process(yl, yr, ratio, period, tuneFades, tunedL, tunedR, frames)
    for (let i = 0; i < frames; i++) {
      const l = inL[i]!
      const r = inR[i]!
      const f = tuneFades[i]!
      const a = f > 0 ? l + f * (tunedL[i]! - l) : l
      const b = f > 0 ? r + f * (tunedR[i]! - r) : r
      yl[i] = a
      yr[i] = b
      mid[i] = 0.5 * (a + b)
    }
    // Harmonize where its fade is above 0, from the tuned mid.
    const voices = this.voices
    this.harmonizer.process(mid, estimated, harmonyHz, harmonyPeriod, harmonyFades, voices, frames)
    for (let i = 0; i < frames; i++) {
      let a = yl[i]!
      let b = yr[i]!
      if (harmonyFades[i]! > 0) {
        const g = voiceGains[i]!
        const v = voices[i]!
        a += g * v
        b += g * v
      }
      outL[i] = a
      outR[i] = b
    }
  }

  /**
   * The pitch estimate of frame i: both tools read it (Harmonize the pitch its input has after
   * tuning, handed over in harmonyHz[i]).
   */
  private estimate(i: number, autoTuneOn: boolean): void {
    const hz = this.hz
    this.retuner.updateAt(hz, i)
    const h = hz[i]!
    this.harmonyHz[i] = autoTuneOn && h > 0 ? h * this.retuner.target : h
  }
}
