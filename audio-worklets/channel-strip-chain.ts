/**
 * The whole channel strip as one pure, allocation-free block processor:
 * highpass → lowpass → distortion → compression → chorus → delay → reverb → volume → pan.
 * The AudioWorkletProcessor is a thin wrapper around this; tests run it directly in Node. Stages
 * whose control is 0 (and whose fade-out has finished) are skipped entirely.
 */
import { BiquadKernel } from './kernels/biquad.ts'
import { ChorusKernel } from './kernels/chorus.ts'
import { CompressorKernel } from './kernels/compressor.ts'
import { DelayKernel } from './kernels/delay.ts'
import { DistortionKernel } from './kernels/distortion.ts'
import { GainKernel } from './kernels/gain.ts'
import { PanKernel } from './kernels/pan.ts'
import { ReverbKernel } from './kernels/reverb.ts'
import type { StripParamName } from './channel-strip-params.ts'

export type StripValues = Record<StripParamName, number>

interface Stage {
  readonly active: boolean
  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void
  snap(): void
}

export class ChannelStripChain {
  readonly highpass: BiquadKernel
  readonly lowpass: BiquadKernel
  readonly distortion: DistortionKernel
  readonly compressor: CompressorKernel
  readonly chorus: ChorusKernel
  readonly delay: DelayKernel
  readonly reverb: ReverbKernel
  readonly fader: GainKernel
  readonly panner: PanKernel
  private readonly stages: readonly Stage[]
  private readonly last: Float64Array

  constructor(sampleRate: number) {
    this.highpass = new BiquadKernel(sampleRate, 'highpass')
    this.lowpass = new BiquadKernel(sampleRate, 'lowpass')
    this.distortion = new DistortionKernel(sampleRate)
    this.compressor = new CompressorKernel(sampleRate)
    this.chorus = new ChorusKernel(sampleRate)
    this.delay = new DelayKernel(sampleRate)
    this.reverb = new ReverbKernel(sampleRate)
    this.fader = new GainKernel(sampleRate)
    this.panner = new PanKernel(sampleRate)
    this.stages = [
      this.highpass,
      this.lowpass,
      this.distortion,
      this.compressor,
      this.chorus,
      this.delay,
      this.reverb,
      this.fader,
      this.panner,
    ]
    this.last = new Float64Array(10).fill(Number.NaN)
  }

  /** Applies one control value; unchanged values are ignored cheaply (called every block). */
  set(name: StripParamName, value: number, index: number): void {
    if (this.last[index] === value || !Number.isFinite(value)) return
    this.last[index] = value
    switch (name) {
      case 'volume':
        this.fader.setVolume(value)
        break
      case 'enabled':
        this.fader.setEnabled(value >= 0.5)
        break
      case 'pan':
        this.panner.setPan(value)
        break
      case 'reverb':
        this.reverb.setAmount(value)
        break
      case 'lowpass':
        this.lowpass.setAmount(value)
        break
      case 'highpass':
        this.highpass.setAmount(value)
        break
      case 'distortion':
        this.distortion.setAmount(value)
        break
      case 'delay':
        this.delay.setAmount(value)
        break
      case 'compression':
        this.compressor.setAmount(value)
        break
      case 'chorus':
        this.chorus.setAmount(value)
        break
    }
  }

  /** Jump every control to its target (before the first block, so initial values do not glide in). */
  snap(): void {
    for (const s of this.stages) s.snap()
  }

  /** In-place on (l, r). */
  process(l: Float32Array, r: Float32Array, frames: number): void {
    const stages = this.stages
    // The effects; fader and panner (the last two stages) follow.
    for (let k = 0; k < stages.length - 2; k++) {
      const s = stages[k]!
      if (s.active) s.process(l, r, l, r, frames)
    }
    const fader = this.fader
    const panner = this.panner
    const faderActive = fader.active
    // Both settled: one pass with the fader's gain folded into the pan gains.
    if (faderActive && panner.active && panner.processScaled(l, r, frames, fader.steadyGain)) return
    if (faderActive) fader.process(l, r, l, r, frames)
    if (panner.active) panner.process(l, r, l, r, frames)
  }
}
