/** The convolution reverb (convolution-reverb-processor.ts): its name and what it is given. */
export const CONVOLUTION_REVERB_PROCESSOR = 'cube-convolution-reverb'

export interface ConvolutionReverbProcessorOptions {
  /** audio-worklets/wasm/reverb.wasm, compiled by the page (the audio thread cannot fetch). */
  module: WebAssembly.Module
  /** The stereo impulse response, equal lengths. */
  left: Float32Array
  right: Float32Array
  /** Normalise the response as a ConvolverNode with `normalize` does (default true). */
  normalise?: boolean
}
