/**
 * The convolution reverb kernel (WebAssembly, `audio-worklets/wasm/reverb/`) seen from JavaScript:
 * a stereo impulse response, then 128-frame quanta in and out. The same compiled module runs in
 * an AudioWorkletGlobalScope, in a worker and in Node, and gives the same bits in each.
 *
 *   instantiateReverb(module)                  a fresh instance (synchronous; one response each)
 *   new ConvolutionReverb(instance, left, right, scale)
 *   reverb.process(inL, inR, outL, outR)       one quantum; a missing input is silence
 *   convolverNormalisation(left, right, rate)  the gain a ConvolverNode with normalize applies
 *
 * Everything is set up in the constructor: process() only copies into and out of the module's
 * memory (views made once) and calls it, so it allocates nothing.
 */
import { RENDER_QUANTUM_FRAMES as Q } from '../render-quantum.ts'

interface ReverbExports {
  memory: WebAssembly.Memory
  configure(frames: number): number
  responseLeft(): number
  responseRight(): number
  inputLeft(): number
  inputRight(): number
  outputLeft(): number
  outputRight(): number
  prepare(scale: number): void
  reset(): void
  render(): void
}

/** The module's only import: AssemblyScript's abort, which a release build reaches only on a bug. */
const imports = {
  env: {
    abort(_message: number, _file: number, line: number, column: number): never {
      throw new Error(`The reverb kernel stopped at line ${line}:${column}`)
    },
  },
}

export function instantiateReverb(module: WebAssembly.Module): WebAssembly.Instance {
  return new WebAssembly.Instance(module, imports)
}

// Chromium's ConvolverNode normalisation (Reverb::CalculateNormalizationScale): the response's RMS
// over all channels is scaled to -58 dB, relative to 44.1 kHz, so a normalised response keeps
// the level the mix was balanced with when a ConvolverNode did the reverb.
const GAIN_CALIBRATION = 10 ** (-58 / 20)
const GAIN_CALIBRATION_SAMPLE_RATE = 44_100
const MIN_POWER = 0.000125

export function convolverNormalisation(left: Float32Array, right: Float32Array, sampleRate: number): number {
  let sum = 0
  for (let i = 0; i < left.length; i++) sum += left[i]! * left[i]!
  for (let i = 0; i < right.length; i++) sum += right[i]! * right[i]!
  let power = Math.sqrt(sum / (left.length + right.length))
  if (!Number.isFinite(power) || power < MIN_POWER) power = MIN_POWER
  return (GAIN_CALIBRATION / power) * (GAIN_CALIBRATION_SAMPLE_RATE / sampleRate)
}

export class ConvolutionReverb {
  private readonly wasm: ReverbExports
  private readonly inL: Float32Array
  private readonly inR: Float32Array
  private readonly outL: Float32Array
  private readonly outR: Float32Array

  /** `left` and `right` are the response (equal lengths); `scale` multiplies it. */
  constructor(instance: WebAssembly.Instance, left: Float32Array, right: Float32Array, scale = 1) {
    if (left.length !== right.length || left.length === 0)
      throw new RangeError(
        `The reverb's impulse response needs two channels of equal, non-zero length (got ${left.length} and ${right.length} frames)`,
      )
    if (!Number.isFinite(scale)) throw new RangeError(`The reverb's gain must be a finite number (got ${scale})`)
    this.wasm = instance.exports as unknown as ReverbExports
    if (!this.wasm.configure(left.length)) throw new Error('A reverb instance holds one impulse response: instantiate a new one')
    const view = (ptr: number, n: number) => new Float32Array(this.wasm.memory.buffer, ptr, n)
    view(this.wasm.responseLeft(), left.length).set(left)
    view(this.wasm.responseRight(), right.length).set(right)
    this.wasm.prepare(scale)
    // After configure() the module never grows its memory again, so these views stay valid.
    this.inL = view(this.wasm.inputLeft(), Q)
    this.inR = view(this.wasm.inputRight(), Q)
    this.outL = view(this.wasm.outputLeft(), Q)
    this.outR = view(this.wasm.outputRight(), Q)
  }

  /** One quantum (128 frames). */
  process(inL: Float32Array | undefined, inR: Float32Array | undefined, outL: Float32Array, outR: Float32Array): void {
    if (inL) this.inL.set(inL)
    else this.inL.fill(0)
    if (inR) this.inR.set(inR)
    else this.inR.fill(0)
    this.wasm.render()
    outL.set(this.outL)
    outR.set(this.outR)
  }

  /** Silences the tail at once. */
  reset(): void {
    this.wasm.reset()
  }
}
