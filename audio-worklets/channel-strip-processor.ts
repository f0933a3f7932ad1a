/**
 * AudioWorkletProcessor for one mixer track: the full ChannelStripChain in one node (per-node cost
 * dominates in Web Audio, so one processor per track beats a node per effect), plus peak/RMS
 * meters posted on the port at ~30 Hz as StripLevelsMessage. Mono input is duplicated to both
 * channels; output is always stereo. Stops (returns false) after a {type:'dispose'} message.
 */
import { ChannelStripChain } from './channel-strip-chain.ts'
import { processStripQuantum, setStripControls } from './channel-strip-quantum.ts'
import {
  CHANNEL_STRIP_PROCESSOR,
  METER_RATE_HZ,
  STRIP_PARAM_DESCRIPTORS,
  type StripControlMessage,
  type StripLevelsMessage,
} from './channel-strip-params.ts'
import { LevelMeter } from './kernels/meter.ts'
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'

class ChannelStripProcessor extends AudioWorkletProcessor {
  static get parameterDescriptors() {
    return STRIP_PARAM_DESCRIPTORS.map((d) => ({ ...d }))
  }

  private readonly chain = new ChannelStripChain(sampleRate)
  private readonly meter = new LevelMeter(sampleRate / METER_RATE_HZ)
  private readonly r = new Float32Array(RENDER_QUANTUM_FRAMES)
  private started = false
  private disposed = false
  private readonly message: StripLevelsMessage = { type: 'levels', peakL: 0, peakR: 0, rmsL: 0, rmsR: 0 }

  constructor() {
    super()
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
    const chain = this.chain
    setStripControls(chain, parameters)
    if (!this.started) {
      chain.snap()
      this.started = true
    }
    // Work in place on the output buffers (stereo output is guaranteed by outputChannelCount [2];
    // the scratch pair only covers a non-stereo output configuration).
    const l = outL
    const r = outR ?? this.r
    const input = inputs[0]
    const inL = input?.[0]
    const inR = input?.[1] ?? inL
    processStripQuantum(chain, inL, inR, l, r, frames)
    if (this.meter.add(l, r, frames)) {
      const m = this.message
      const lv = this.meter.levels
      m.peakL = lv.peakL
      m.peakR = lv.peakR
      m.rmsL = lv.rmsL
      m.rmsR = lv.rmsR
      this.port.postMessage(m)
    }
    return true
  }
}

registerProcessor(CHANNEL_STRIP_PROCESSOR, ChannelStripProcessor)
