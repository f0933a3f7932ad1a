/**
 * AudioWorkletProcessor for the Remix Studio's Auto Tune and Harmonize: the whole RemixToolsChain
 * in one node (per-node cost dominates in Web Audio). Mono input is duplicated to both channels;
 * output is always stereo. Stops (returns false) after a {type:'dispose'} message.
 */
import { RemixToolsChain } from './remix-tools-chain.ts'
import { REMIX_TOOLS_PARAM_DESCRIPTORS, REMIX_TOOLS_PROCESSOR, type RemixToolsControlMessage } from './remix-tools-params.ts'
import { processRemixToolsQuantum, setRemixToolControls } from './remix-tools-quantum.ts'
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'

class RemixToolsProcessor extends AudioWorkletProcessor {
  static get parameterDescriptors() {
    return REMIX_TOOLS_PARAM_DESCRIPTORS.map((d) => ({ ...d }))
  }

  private readonly chain = new RemixToolsChain(sampleRate)
  private readonly r = new Float32Array(RENDER_QUANTUM_FRAMES)
  private started = false
  private disposed = false

  constructor() {
    super()
    this.port.onmessage = (event: MessageEvent<RemixToolsControlMessage>) => {
      if (event.data?.type === 'dispose') this.disposed = true
    }
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean {
    if (this.disposed) return false
    const output = outputs[0]
    if (!output || output.length === 0) return true
    const l = output[0]!
    // Stereo output is guaranteed by outputChannelCount [2]; the scratch only covers another configuration.
    const r = output[1] ?? this.r
    const chain = this.chain
    setRemixToolControls(chain, parameters)
    if (!this.started) {
      chain.snap()
      this.started = true
    }
    const input = inputs[0]
    const inL = input?.[0]
    const inR = input?.[1] ?? inL
    processRemixToolsQuantum(chain, inL, inR, l, r, l.length)
    return true
  }
}

registerProcessor(REMIX_TOOLS_PROCESSOR, RemixToolsProcessor)
