/**
 * The channel strip on its WebAssembly build (`wasm/strip.wasm`, sources in `wasm/strip/`): one
 * instance per strip, instantiated synchronously from a compiled WebAssembly.Module (an
 * AudioWorkletGlobalScope has no fetch: the main thread compiles it and hands it over in
 * processorOptions; workers get it in a message; Node tests read the file). The AudioWorklet
 * processor, the export's workers and the tests all run this class, so live graph, export and
 * tests share one implementation.
 *
 * A quantum: copy the input into `inL`/`inR` (views on the instance's memory), `process()`, read
 * `outL`/`outR`. Inside, highpass → lowpass → distortion → compression → chorus → delay → reverb,
 * then fader and pan, all in WebAssembly: one call a quantum (and one more for the meter,
 * `measure()`), none per sample. Nothing is allocated after construction
 * (processor-allocation.test.ts).
 */
import { STRIP_PARAM_DESCRIPTORS, STRIP_PARAM_NAMES, type StripParamName } from './channel-strip-params.ts'
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'

interface StripExports {
  readonly memory: WebAssembly.Memory
  init(sampleRate: number, meterWindowFrames: number): void
  inputLeft(): number
  inputRight(): number
  outputLeft(): number
  outputRight(): number
  controls(): number
  levels(): number
  applyControls(): void
  snap(): void
  process(frames: number, hasInput: number): void
  measure(frames: number): number
}

const Q = RENDER_QUANTUM_FRAMES

/** The four levels of the last completed meter window, linear, post-fader/pan. */
export interface StripLevelsView {
  readonly peakL: number
  readonly peakR: number
  readonly rmsL: number
  readonly rmsR: number
}

export class WasmChannelStrip {
  /** Input channels of the next quantum (write, then process()). */
  readonly inL: Float32Array
  readonly inR: Float32Array
  /** Output channels of the last quantum. */
  readonly outL: Float32Array
  readonly outR: Float32Array
  private readonly exports: StripExports
  private readonly controlValues: Float32Array
  private readonly levelValues: Float64Array

  /**
   * @param module strip.wasm, compiled
   * @param meterWindowFrames frames per meter window (the processor's ~1/30 s); the meter runs only
   *   when measure() is called
   */
  constructor(module: WebAssembly.Module, sampleRate: number, meterWindowFrames = sampleRate / 30) {
    if (!(module instanceof WebAssembly.Module)) throw new TypeError('The channel strip needs strip.wasm as a compiled WebAssembly.Module')
    if (!(sampleRate >= 3000 && sampleRate <= 768_000)) throw new RangeError(`Unsupported sample rate ${sampleRate}`)
    const instance = new WebAssembly.Instance(module, { env: { abort: stripAbort } })
    const x = instance.exports as unknown as StripExports
    x.init(sampleRate, meterWindowFrames)
    // init() allocated everything the instance will ever use: the memory never grows after this,
    // so these views stay valid for the strip's life.
    const buffer = x.memory.buffer
    this.exports = x
    this.inL = new Float32Array(buffer, x.inputLeft(), Q)
    this.inR = new Float32Array(buffer, x.inputRight(), Q)
    this.outL = new Float32Array(buffer, x.outputLeft(), Q)
    this.outR = new Float32Array(buffer, x.outputRight(), Q)
    this.controlValues = new Float32Array(buffer, x.controls(), STRIP_PARAM_NAMES.length)
    this.levelValues = new Float64Array(buffer, x.levels(), 4)
    // Until told otherwise every control is at its neutral default (a bare node is transparent).
    STRIP_PARAM_DESCRIPTORS.forEach((d, k) => (this.controlValues[k] = d.defaultValue))
    this.apply()
  }

  /**
   * This quantum's controls from a `parameters` record (the processor's, or a worker's of the same
   * shape: k-rate, one float32 value per control); a missing control keeps its value. Unchanged
   * values cost a comparison.
   */
  setControls(parameters: Readonly<Record<string, Float32Array>>): void {
    const values = this.controlValues
    for (let k = 0; k < STRIP_PARAM_NAMES.length; k++) {
      const p = parameters[STRIP_PARAM_NAMES[k]!]
      if (p && p.length > 0) values[k] = p[0]!
    }
    this.apply()
  }

  /** One control, in AudioParam units (rounded to float32 as an AudioParam holds it). */
  set(name: StripParamName, value: number): void {
    const k = STRIP_PARAM_NAMES.indexOf(name)
    if (k < 0) throw new RangeError(`No strip control named ${String(name)}`)
    this.controlValues[k] = value
    this.apply()
  }

  private apply(): void {
    this.exports.applyControls()
  }

  /** Every control jumps to its target (before the first quantum, so initial values do not glide in). */
  snap(): void {
    this.exports.snap()
  }

  /** One quantum (frames ≤ 128) from inL/inR, or from silence when `hasInput` is false, into outL/outR. */
  process(hasInput: boolean, frames = Q): void {
    this.exports.process(frames, hasInput ? 1 : 0)
  }

  /** In place on (l, r), `frames` ≤ 128 (tests and benches; the processor copies in and out itself). */
  processInPlace(l: Float32Array, r: Float32Array, frames: number): void {
    for (let i = 0; i < frames; i++) {
      this.inL[i] = l[i]!
      this.inR[i] = r[i]!
    }
    this.process(true, frames)
    for (let i = 0; i < frames; i++) {
      l[i] = this.outL[i]!
      r[i] = this.outR[i]!
    }
  }

  /** Adds the last output to the meter; true when a window has just completed (read `levels`). */
  measure(frames = Q): boolean {
    return this.exports.measure(frames) === 1
  }

  /** The last completed meter window. */
  get levels(): StripLevelsView {
    const v = this.levelValues
    return { peakL: v[0]!, peakR: v[1]!, rmsL: v[2]!, rmsR: v[3]! }
  }

  /** Copies the last completed window into `into` (allocation-free, for the audio thread). */
  readLevels(into: { peakL: number; peakR: number; rmsL: number; rmsR: number }): void {
    const v = this.levelValues
    into.peakL = v[0]!
    into.peakR = v[1]!
    into.rmsL = v[2]!
    into.rmsR = v[3]!
  }
}

/** The AssemblyScript runtime's abort import; it runs only on a bug (the build has no assertions). */
function stripAbort(): never {
  throw new Error('strip.wasm aborted')
}
