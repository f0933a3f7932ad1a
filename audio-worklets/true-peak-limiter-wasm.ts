/**
 * The player's true-peak limiter on strip.wasm (`wasm/strip/true-peak-limiter.ts`, the same
 * algorithm and arithmetic as kernels/true-peak-limiter.ts): one instance per limiter, views on its
 * memory for the stereo input and output, one call per quantum, nothing allocated after construction.
 */
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'
import type { TruePeakLimiterOptions } from './kernels/true-peak-limiter.ts'

interface LimiterExports {
  readonly memory: WebAssembly.Memory
  limiterInit(sampleRate: number, ceilingDb: number, lookaheadSeconds: number, releaseSeconds: number): void
  limiterInput(): number
  limiterOutput(): number
  limiterLatency(): number
  limiterProcess(frames: number): void
  limiterTakeLowestGain(): number
}

const Q = RENDER_QUANTUM_FRAMES

export class WasmTruePeakLimiter {
  /** Frames from input to output. */
  readonly latencyFrames: number
  readonly inL: Float32Array
  readonly inR: Float32Array
  readonly outL: Float32Array
  readonly outR: Float32Array
  private readonly exports: LimiterExports

  constructor(module: WebAssembly.Module, sampleRate: number, options: TruePeakLimiterOptions = {}) {
    if (!(module instanceof WebAssembly.Module)) throw new TypeError('The limiter needs strip.wasm as a compiled WebAssembly.Module')
    if (!(sampleRate >= 3000 && sampleRate <= 768_000)) throw new RangeError(`Unsupported sample rate ${sampleRate}`)
    const instance = new WebAssembly.Instance(module, { env: { abort: limiterAbort } })
    const x = instance.exports as unknown as LimiterExports
    x.limiterInit(sampleRate, options.ceilingDb ?? -1, options.lookaheadSeconds ?? 0.0015, options.releaseSeconds ?? 0.08)
    // limiterInit() allocated everything: the memory never grows, so these views stay valid.
    const buffer = x.memory.buffer
    this.exports = x
    this.inL = new Float32Array(buffer, x.limiterInput(), Q)
    this.inR = new Float32Array(buffer, x.limiterInput() + 4 * Q, Q)
    this.outL = new Float32Array(buffer, x.limiterOutput(), Q)
    this.outR = new Float32Array(buffer, x.limiterOutput() + 4 * Q, Q)
    this.latencyFrames = x.limiterLatency()
  }

  /** One quantum (frames ≤ 128) from inL/inR into outL/outR; without input the line drains silence. */
  process(hasInput: boolean, frames = Q): void {
    if (!hasInput) {
      this.inL.fill(0)
      this.inR.fill(0)
    }
    this.exports.limiterProcess(frames)
  }

  /** The smallest gain applied since the last call, then resets it (1 = no limiting). */
  takeLowestGain(): number {
    return this.exports.limiterTakeLowestGain()
  }
}

function limiterAbort(): never {
  throw new Error('strip.wasm aborted')
}
