/**
 * The player deck's true-peak limiter: everything the deck plays (every item, after its loudness
 * normalisation gain, before the volume) goes through it, so a song boosted to the listener's
 * loudness target never exceeds the ceiling. It runs on strip.wasm (true-peak-limiter-wasm.ts; the
 * compiled module arrives in processorOptions.stripModule). Stereo in, stereo out; a mono input
 * feeds both channels. No input connected is silence (the delay line still drains).
 */
import { WasmTruePeakLimiter } from './true-peak-limiter-wasm.ts'
import { TRUE_PEAK_LIMITER_PROCESSOR, type TruePeakLimiterProcessorOptions } from './true-peak-limiter-params.ts'

class TruePeakLimiterProcessor extends AudioWorkletProcessor {
  private readonly limiter: WasmTruePeakLimiter

  constructor(options: { processorOptions?: Partial<TruePeakLimiterProcessorOptions> }) {
    super()
    const module = options.processorOptions?.stripModule
    if (!module) throw new Error('The true-peak limiter processor needs processorOptions.stripModule (strip.wasm, compiled)')
    this.limiter = new WasmTruePeakLimiter(module, sampleRate, { ceilingDb: options.processorOptions?.ceilingDb ?? -1 })
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0]
    const output = outputs[0]
    const outL = output?.[0]
    if (!outL) return true
    const limiter = this.limiter
    const inL = input?.[0]
    const inR = input?.[1] ?? inL
    if (inL && inR) {
      limiter.inL.set(inL)
      limiter.inR.set(inR)
    }
    limiter.process(inL !== undefined && inR !== undefined, outL.length)
    outL.set(limiter.outL)
    output[1]?.set(limiter.outR)
    return true
  }
}

registerProcessor(TRUE_PEAK_LIMITER_PROCESSOR, TruePeakLimiterProcessor)
