/**
 * AudioWorkletProcessor for the Remix Studio preview: the whole RemixVoiceChain in one node (no
 * input; stereo out), the source and loops handed over in processorOptions, transport by port
 * messages, the position posted ~20 times a second. Stops (returns false) after 'dispose'.
 */
import { RemixVoiceChain } from './remix-voice-chain.ts'
import { processRemixVoiceQuantum, setRemixVoiceControls } from './remix-voice-quantum.ts'
import {
  LAYER_PARAM_DESCRIPTORS,
  POSITION_RATE_HZ,
  REMIX_VOICE_PROCESSOR,
  type RemixVoiceEvent,
  type RemixVoiceMessage,
  type RemixVoiceOptions,
} from './remix-voice-params.ts'
import { REMIX_TOOLS_PARAM_DESCRIPTORS } from './remix-tools-params.ts'
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'

class RemixVoiceProcessor extends AudioWorkletProcessor {
  static get parameterDescriptors() {
    return [...REMIX_TOOLS_PARAM_DESCRIPTORS, ...LAYER_PARAM_DESCRIPTORS].map((d) => ({ ...d }))
  }

  private readonly chain: RemixVoiceChain
  private readonly r = new Float32Array(RENDER_QUANTUM_FRAMES)
  private started = false
  private disposed = false
  private sinceReport = 0
  private readonly reportEvery = Math.round(sampleRate / POSITION_RATE_HZ)
  private readonly position: RemixVoiceEvent & { type: 'position' } = { type: 'position', frame: 0, playing: false }

  constructor(options: { processorOptions: RemixVoiceOptions }) {
    super()
    this.chain = new RemixVoiceChain(sampleRate, options.processorOptions)
    this.port.onmessage = (event: MessageEvent<RemixVoiceMessage>) => {
      const m = event.data
      if (m.type === 'play') this.chain.play()
      else if (m.type === 'pause') this.chain.pause()
      else if (m.type === 'seek') this.chain.seek(m.frame)
      else if (m.type === 'loop') this.chain.setLoop(m.start, m.end)
      else if (m.type === 'dispose') this.disposed = true
      this.report()
    }
  }

  private report(): void {
    this.position.frame = this.chain.position
    this.position.playing = this.chain.playing
    this.port.postMessage(this.position)
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean {
    if (this.disposed) return false
    const output = outputs[0]
    if (!output || output.length === 0) return true
    const l = output[0]!
    const r = output[1] ?? this.r
    const chain = this.chain
    setRemixVoiceControls(chain, parameters)
    if (!this.started) {
      chain.snap()
      this.started = true
    }
    processRemixVoiceQuantum(chain, l, r, l.length)
    if (chain.ended) {
      chain.ended = false
      this.port.postMessage({ type: 'ended' } satisfies RemixVoiceEvent)
      this.report()
    }
    this.sinceReport += l.length
    if (this.sinceReport >= this.reportEvery && chain.playing) {
      this.sinceReport = 0
      this.report()
    }
    return true
  }
}

registerProcessor(REMIX_VOICE_PROCESSOR, RemixVoiceProcessor)
