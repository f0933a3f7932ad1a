/**
 * The remix voice as one pure, allocation-free block processor (the processor is a thin wrapper;
 * the export's worker runs this same class quantum by quantum, so the render equals the preview):
 *
 *   source player (position, loop region) → remix tools (Auto Tune, Harmonize) → + sample layers
 *
 * The layers read the same timeline position as the source, so after a seek or a loop wrap they
 * are still on the source's beat grid. Layer levels glide (~10 ms): toggles never click.
 */
import { LoopLayer } from './kernels/loop-layer.ts'
import { onePoleCoefficient } from './kernels/smoothing.ts'
import { RemixToolsChain } from './remix-tools-chain.ts'
import { REMIX_TOOLS_PARAM_NAMES, type RemixToolsParamName } from './remix-tools-params.ts'
import { layerGain, REMIX_LAYERS, type RemixLayer, type RemixVoiceOptions, type RemixVoiceParamName } from './remix-voice-params.ts'
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'

const LAYER_INDEX: Readonly<Record<string, number>> = Object.fromEntries(REMIX_LAYERS.map((name, i) => [name, i]))

export class RemixVoiceChain {
  readonly tools: RemixToolsChain
  private readonly srcL: Float32Array
  private readonly srcR: Float32Array
  private readonly layerMix: Float32Array
  private readonly layerTmp: Float32Array
  private readonly layers: (LoopLayer | null)[]
  private readonly gains = new Float64Array(REMIX_LAYERS.length)
  private readonly targets = new Float64Array(REMIX_LAYERS.length)
  /** The level each target was computed from. */
  private readonly levels = new Float64Array(REMIX_LAYERS.length).fill(Number.NaN)
  /** The value `setLayer` applies. */
  private readonly incoming = new Float64Array(1)
  private readonly glide: number = 0
  private readonly left: Float32Array
  private readonly right: Float32Array
  readonly length: number = 0
  position: number = 0
  playing: boolean
  /** Set when playback ran off the end (cleared by play/seek); the processor reports it once. */
  ended = false
  private loopStart = 0
  private loopEnd = 0

  constructor(sampleRate: number, options: RemixVoiceOptions, blockFrames = RENDER_QUANTUM_FRAMES) {
    this.tools = new RemixToolsChain(sampleRate)
    this.srcL = new Float32Array(blockFrames)
    this.srcR = new Float32Array(blockFrames)
    this.layerMix = new Float32Array(blockFrames)
    this.layerTmp = new Float32Array(blockFrames)
    const [l, r] = options.source
    if (!l) throw new RangeError('The remix source has no audio')
    this.left = l
    this.right = r ?? l
    this.length = l.length
    this.layers = REMIX_LAYERS.map((name: RemixLayer) => {
      const placement = options.layers[name]
      return placement && placement.loop.length > 0 ? new LoopLayer(placement, sampleRate) : null
    })
    this.glide = onePoleCoefficient(0.01, sampleRate)
    this.position = Math.min(Math.max(0, Math.floor(options.position)), this.length)
    this.playing = options.playing
  }

  set(name: RemixVoiceParamName, value: number): void {
    const layer = LAYER_INDEX[name]
    if (layer === undefined) {
      this.tools.set(name as RemixToolsParamName, value)
      return
    }
    this.incoming[0] = value
    this.setLayer(layer)
  }

  /**
   * `set` of control REMIX_VOICE_PARAM_NAMES[index] to values[0], what the audio thread calls each
   * quantum: it hands over no double (V8 boxes one passed to a call it does not inline).
   */
  setAt(index: number, values: Float32Array): void {
    if (index < REMIX_TOOLS_PARAM_NAMES.length) {
      this.tools.setAt(index, values)
      return
    }
    this.incoming[0] = values[0]!
    this.setLayer(index - REMIX_TOOLS_PARAM_NAMES.length)
  }

  /** Layer `layer`'s level from incoming[0] (recomputed only when it changed). */
  private setLayer(layer: number): void {
    const value = this.incoming[0]!
    if (value === this.levels[layer] || !Number.isFinite(value)) return
    this.levels[layer] = value
    this.targets[layer] = layerGain(value)
  }

  /** Jumps every glide to its target (before the first block). */
  snap(): void {
    this.gains.set(this.targets)
    this.tools.snap()
  }

  play(): void {
    if (this.position >= this.length) this.position = this.loopEnd > this.loopStart ? this.loopStart : 0
    this.playing = true
    this.ended = false
  }

  pause(): void {
    this.playing = false
  }

  seek(frame: number): void {
    if (!Number.isFinite(frame)) return
    this.position = Math.min(Math.max(0, Math.floor(frame)), this.length)
    this.ended = false
  }

  /** A loop region in frames; end <= start turns it off. */
  setLoop(start: number, end: number): void {
    const s = Math.min(Math.max(0, Math.floor(start)), this.length)
    const e = Math.min(Math.max(0, Math.floor(end)), this.length)
    if (e - s < 128) {
      this.loopStart = this.loopEnd = 0
      return
    }
    this.loopStart = s
    this.loopEnd = e
    if (this.position >= e || this.position < s) this.position = s
  }

  process(outL: Float32Array, outR: Float32Array, frames: number): void {
    const srcL = this.srcL
    const srcR = this.srcR
    const mix = this.layerMix
    mix.fill(0, 0, frames)
    let i = 0
    while (i < frames) {
      if (!this.playing) {
        srcL.fill(0, i, frames)
        srcR.fill(0, i, frames)
        break
      }
      const looping = this.loopEnd > this.loopStart
      const stop = looping ? this.loopEnd : this.length
      const n = Math.min(frames - i, stop - this.position)
      if (n <= 0) {
        if (looping) {
          this.position = this.loopStart
          continue
        }
        this.playing = false
        this.ended = true
        continue
      }
      // A copy loop, not set(subarray): a subarray is a new view object every quantum.
      const left = this.left
      const right = this.right
      for (let k = 0, at = this.position; k < n; k++, at++) {
        srcL[i + k] = left[at]!
        srcR[i + k] = right[at]!
      }
      this.addLayers(mix, i, this.position, n)
      this.position += n
      i += n
    }
    this.tools.process(srcL, srcR, outL, outR, frames)
    for (let k = 0; k < frames; k++) {
      outL[k]! += mix[k]!
      outR[k]! += mix[k]!
    }
  }

  /** Adds the layers for timeline frames [from, from + n) into mix[at …], each at its gliding gain. */
  private addLayers(mix: Float32Array, at: number, from: number, n: number): void {
    const tmp = this.layerTmp
    for (let j = 0; j < this.layers.length; j++) {
      const layer = this.layers[j]
      const target = this.targets[j]!
      let gain = this.gains[j]!
      if (!layer || (gain === 0 && target === 0)) {
        this.gains[j] = target
        continue
      }
      tmp.fill(0, 0, n)
      layer.addInto(tmp, from, n, 1)
      if (gain === target) {
        for (let k = 0; k < n; k++) mix[at + k]! += gain * tmp[k]!
      } else {
        const c = this.glide
        for (let k = 0; k < n; k++) {
          gain += c * (target - gain)
          mix[at + k]! += gain * tmp[k]!
        }
        if (Math.abs(target - gain) < 1e-6) gain = target
        this.gains[j] = gain
      }
    }
  }
}
