/**
 * The channel-strip processor as it was before strip.wasm: the same chain as JavaScript kernels
 * (audio-worklets/channel-strip-chain.ts), the same meter, under another name. Bench-only: it is
 * the "before" the channel-strip bench measures in the same run as the WebAssembly strip.
 */
import { ChannelStripChain } from '../../audio-worklets/channel-strip-chain.ts'
import { STRIP_PARAM_DESCRIPTORS, STRIP_PARAM_NAMES, type StripLevelsMessage } from '../../audio-worklets/channel-strip-params.ts'
import { LevelMeter } from '../../audio-worklets/kernels/meter.ts'

export const JS_STRIP_PROCESSOR = 'cube-channel-strip-js'

class JsChannelStripProcessor extends AudioWorkletProcessor {
  static get parameterDescriptors() {
    return STRIP_PARAM_DESCRIPTORS.map((d) => ({ ...d }))
  }

  private readonly chain = new ChannelStripChain(sampleRate)
  private readonly meter = new LevelMeter(sampleRate / 30)
  private started = false
  private readonly message: StripLevelsMessage = { type: 'levels', peakL: 0, peakR: 0, rmsL: 0, rmsR: 0 }

  process(inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean {
    const l = outputs[0]![0]!
    const r = outputs[0]![1]!
    const chain = this.chain
    for (let k = 0; k < STRIP_PARAM_NAMES.length; k++) {
      const values = parameters[STRIP_PARAM_NAMES[k]!]
      if (values && values.length > 0) chain.set(STRIP_PARAM_NAMES[k]!, values[0]!, k)
    }
    if (!this.started) {
      chain.snap()
      this.started = true
    }
    const inL = inputs[0]?.[0]
    const inR = inputs[0]?.[1] ?? inL
    if (inL && inR) {
      l.set(inL)
      r.set(inR)
    } else {
      l.fill(0)
      r.fill(0)
    }
    chain.process(l, r, l.length)
    if (this.meter.add(l, r, l.length)) {
      Object.assign(this.message, this.meter.levels)
      this.port.postMessage(this.message)
    }
    return true
  }
}

registerProcessor(JS_STRIP_PROCESSOR, JsChannelStripProcessor)
