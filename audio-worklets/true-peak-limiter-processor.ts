/**
 * The player deck's true-peak limiter: everything the deck plays (every item, after its loudness
 * normalisation gain, before the volume) goes through kernels/true-peak-limiter.ts, so a song
 * boosted to the listener's loudness target never exceeds the ceiling. Stereo in, stereo out;
 * a mono input feeds both channels. No input connected is silence (the delay line still drains).
 */
import { TruePeakLimiter } from './kernels/true-peak-limiter.ts'
import { TRUE_PEAK_LIMITER_PROCESSOR, type TruePeakLimiterProcessorOptions } from './true-peak-limiter-params.ts'

class TruePeakLimiterProcessor extends AudioWorkletProcessor {
  private readonly limiter: TruePeakLimiter
  private readonly inputs: (Float32Array | undefined)[] = [undefined, undefined]

  constructor(options: { processorOptions?: Partial<TruePeakLimiterProcessorOptions> }) {
    super()
    this.limiter = new TruePeakLimiter(sampleRate, 2, { ceilingDb: options.processorOptions?.ceilingDb ?? -1 })
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0]
    const output = outputs[0]
    if (!output?.[0]) return true
    this.inputs[0] = input?.[0]
    this.inputs[1] = input?.[1] ?? input?.[0]
    this.limiter.process(this.inputs, output, output[0].length)
    return true
  }
}

registerProcessor(TRUE_PEAK_LIMITER_PROCESSOR, TruePeakLimiterProcessor)
