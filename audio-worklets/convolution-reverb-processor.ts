/**
 * The convolution reverb on the audio thread: kernels/convolution-reverb.ts (WebAssembly) with the
 * response and compiled module it is given at construction. Stereo in, stereo out, zero latency;
 * a mono input feeds both channels and no input is silence (the tail still rings out). It keeps
 * running while its node exists, so a tail is never cut.
 */
import { ConvolutionReverb, convolverNormalisation, instantiateReverb } from './kernels/convolution-reverb.ts'
import { CONVOLUTION_REVERB_PROCESSOR, type ConvolutionReverbProcessorOptions } from './convolution-reverb-params.ts'

class ConvolutionReverbProcessor extends AudioWorkletProcessor {
  private readonly reverb: ConvolutionReverb

  constructor(options: { processorOptions?: ConvolutionReverbProcessorOptions }) {
    super()
    const o = options.processorOptions
    if (!o?.module || !o.left || !o.right) throw new Error('The convolution reverb needs its compiled module and a stereo impulse response')
    const scale = o.normalise === false ? 1 : convolverNormalisation(o.left, o.right, sampleRate)
    this.reverb = new ConvolutionReverb(instantiateReverb(o.module), o.left, o.right, scale)
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0]
    const output = outputs[0]
    if (!output?.[0] || !output[1]) return true
    this.reverb.process(input?.[0], input?.[1] ?? input?.[0], output[0], output[1])
    return true
  }
}

registerProcessor(CONVOLUTION_REVERB_PROCESSOR, ConvolutionReverbProcessor)
