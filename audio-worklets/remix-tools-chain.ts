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
 */
import { keyMask, Retuner } from './kernels/auto-tune.ts'
import { DelayShifter } from './kernels/delay-shifter.ts'
import { Harmonizer } from './kernels/harmonizer.ts'
import { PitchTracker } from './kernels/pitch-tracker.ts'
import { onePoleCoefficient } from './kernels/smoothing.ts'
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
  private readonly fadeStep: number
  private voiceGain: number
  private voiceTarget: number
  private readonly voiceGlide: number
  private tonic = 0
  private mode: 0 | 1 = 0
  private readonly last = new Float64Array(REMIX_TOOLS_PARAM_NAMES.length).fill(Number.NaN)

  constructor(sampleRate: number) {
    this.tracker = new PitchTracker(sampleRate)
    this.retuner = new Retuner(sampleRate, [], retuneMs(REMIX_TOOLS_NEUTRAL.retune))
    this.retuner.setMask(keyMask(0, 0))
    this.tuner = new DelayShifter(sampleRate, 2)
    this.harmonizer = new Harmonizer(sampleRate)
    this.fadeStep = 1 / (FADE_SECONDS * sampleRate)
    this.voiceGain = this.voiceTarget = harmonyVoiceGain(REMIX_TOOLS_NEUTRAL.harmonyMix)
    this.voiceGlide = onePoleCoefficient(0.01, sampleRate)
  }

  /** Applies one control (AudioParam units, see remix-tools-params.ts); unchanged values cost a comparison. */
  set(name: RemixToolsParamName, value: number): void {
    const index = REMIX_TOOLS_PARAM_NAMES.indexOf(name)
    if (index < 0 || this.last[index] === value || !Number.isFinite(value)) return
    this.last[index] = value
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

  /** Stereo; in place is fine (each sample is read before it is written). */
  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    const tracker = this.tracker
    const tuner = this.tuner
    const harmonizer = this.harmonizer
    if (!this.autoTuneOn && !this.harmonizeOn && this.tuneFade === 0 && this.harmonyFade === 0) {
      for (let i = 0; i < frames; i++) {
        const l = inL[i]!
        const r = inR[i]!
        outL[i] = l
        outR[i] = r
        const mid = 0.5 * (l + r)
        if (tracker.push(mid)) this.estimate()
        tuner.feed(l, r)
        harmonizer.feed(mid)
      }
      return
    }
    const retuner = this.retuner
    const step = this.fadeStep
    const tuneTarget = this.autoTuneOn ? 1 : 0
    const harmonyTarget = this.harmonizeOn ? 1 : 0
    let tuneFade = this.tuneFade
    let harmonyFade = this.harmonyFade
    let voiceGain = this.voiceGain
    for (let i = 0; i < frames; i++) {
      const l = inL[i]!
      const r = inR[i]!
      if (tracker.push(0.5 * (l + r))) this.estimate()
      const period = tracker.period
      const ratio = retuner.next()
      let yl = l
      let yr = r
      if (tuneFade !== tuneTarget)
        tuneFade = tuneTarget > tuneFade ? Math.min(tuneTarget, tuneFade + step) : Math.max(tuneTarget, tuneFade - step)
      if (tuneFade > 0) {
        const tl = tuner.next(l, ratio, period, r)
        const tr = tuner.right
        yl = l + tuneFade * (tl - l)
        yr = r + tuneFade * (tr - r)
      } else {
        tuner.feed(l, r)
      }
      const mid = 0.5 * (yl + yr)
      if (harmonyFade !== harmonyTarget)
        harmonyFade =
          harmonyTarget > harmonyFade ? Math.min(harmonyTarget, harmonyFade + step) : Math.max(harmonyTarget, harmonyFade - step)
      if (harmonyFade > 0) {
        // The voices' input is the tuned mid, whose period the correction has shortened or lengthened.
        const voices = harmonizer.next(mid, tuneFade > 0 && period > 0 ? period / ratio : period)
        voiceGain += this.voiceGlide * (this.voiceTarget - voiceGain)
        const g = voiceGain * harmonyFade
        yl += g * voices
        yr += g * voices
      } else {
        harmonizer.feed(mid)
      }
      outL[i] = yl
      outR[i] = yr
    }
    this.tuneFade = tuneFade
    this.harmonyFade = harmonyFade
    this.voiceGain = Math.abs(this.voiceTarget - voiceGain) < 1e-7 ? this.voiceTarget : voiceGain
  }

  /** A new pitch estimate: both tools read it (Harmonize the pitch its input has after tuning). */
  private estimate(): void {
    const hz = this.tracker.hz
    this.retuner.update(hz)
    this.harmonizer.update(this.autoTuneOn && hz > 0 ? hz * this.retuner.target : hz)
  }
}
