/**
 * AudioWorkletProcessor for one mixer track: the whole channel strip in one node (per-node cost
 * dominates in Web Audio, so one processor per track beats a node per effect), running on
 * strip.wasm (channel-strip-wasm.ts), plus peak/RMS meters posted on the port at ~30 Hz as
 * StripLevelsMessage. The compiled WebAssembly.Module arrives in processorOptions.stripModule
 * (this scope has no fetch). Mono input is duplicated to both channels; output is always stereo.
 * Stops (returns false) after a {type:'dispose'} message.
 */
import { WasmChannelStrip } from './channel-strip-wasm.ts'
import {
  CHANNEL_STRIP_PROCESSOR,
  METER_RATE_HZ,
  STRIP_PARAM_DESCRIPTORS,
  type ChannelStripProcessorOptions,
  type StripControlMessage,
  type StripLevelsMessage,
} from './channel-strip-params.ts'

class ChannelStripProcessor extends AudioWorkletProcessor {
  static get parameterDescriptors() {
    return STRIP_PARAM_DESCRIPTORS.map((d) => ({ ...d }))
  }

  private readonly strip: WasmChannelStrip
  private started = false
  private disposed = false
  private readonly message: StripLevelsMessage = { type: 'levels', peakL: 0, peakR: 0, rmsL: 0, rmsR: 0 }

  constructor(options: { processorOptions?: Partial<ChannelStripProcessorOptions> }) {
    super()
    const module = options.processorOptions?.stripModule
    if (!module) throw new Error('The channel strip processor needs processorOptions.stripModule (strip.wasm, compiled)')
    this.strip = new WasmChannelStrip(module, sampleRate, sampleRate / METER_RATE_HZ)
    this.port.onmessage = (event: MessageEvent<StripControlMessage>) => {
      if (event.data?.type === 'dispose') this.disposed = true
    }
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean {
    if (this.disposed) return false
    const output = outputs[0]
    if (!output || output.length === 0) return true
    const outL = output[0]!
    const outR = output[1]
    const frames = outL.length
    const strip = this.strip
    strip.setControls(parameters)
    if (!this.started) {
      strip.snap()
      this.started = true
    }
    const input = inputs[0]
    const inL = input?.[0]
    const inR = input?.[1] ?? inL
    if (inL && inR) {
      strip.inL.set(inL)
      strip.inR.set(inR)
    }
    strip.process(inL !== undefined && inR !== undefined, frames)
    outL.set(strip.outL)
    // Stereo output is guaranteed by outputChannelCount [2]; a non-stereo configuration gets the left.
    if (outR) outR.set(strip.outR)
    if (strip.measure(frames)) {
      const m = this.message
      strip.readLevels(m)
      this.port.postMessage(m)
    }
    return true
  }
}

registerProcessor(CHANNEL_STRIP_PROCESSOR, ChannelStripProcessor)
