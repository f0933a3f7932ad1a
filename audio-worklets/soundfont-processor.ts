/**
 * AudioWorkletProcessor that plays a note list through the SoundFont synthesizer (spessasynth_core),
 * the live half of the instrument engine: the same SoundfontSequence as the offline renderer, on the
 * same 128-frame grid. The Vorbis decoder of an SF3 bank starts asynchronously, so the sequence
 * begins at the first quantum after it is ready and the processor posts which context frame that was.
 * A deliberate exception to this folder's rule of no npm packages: spessasynth_core is written for
 * the audio thread (its own AudioWorklet synthesizer runs it there).
 */
import { SoundBankLoader, SpessaSynthProcessor } from 'spessasynth_core'
import {
  SOUNDFONT_PROCESSOR,
  type SoundfontPlayMessage,
  type SoundfontProcessorEvent,
  type SoundfontProcessorOptions,
} from './soundfont-params.ts'
import { SoundfontSequence, applySynthEvent } from './soundfont-sequence.ts'

class SoundfontProcessor extends AudioWorkletProcessor {
  private sequence: SoundfontSequence | null = null
  private failed = false
  private endedPosted = false
  private synth: SpessaSynthProcessor
  /** Live events posted since the last quantum (allocated by the message, not by process()). */
  private live: SoundfontPlayMessage[] = []
  private liveCount = 0

  constructor(options: { processorOptions: SoundfontProcessorOptions }) {
    super()
    this.port.onmessage = (e: MessageEvent<SoundfontPlayMessage>) => {
      if (e.data?.type !== 'play') return
      if (this.liveCount < this.live.length) this.live[this.liveCount] = e.data
      else this.live.push(e.data)
      this.liveCount++
    }
    const { bank, events, effects } = options.processorOptions
    const synth = new SpessaSynthProcessor(sampleRate, { effectsEnabled: effects, eventsEnabled: false })
    this.synth = synth
    synth.processorInitialized.then(
      () => {
        try {
          synth.soundBankManager.addSoundBank(SoundBankLoader.fromArrayBuffer(bank), 'gm')
          this.sequence = new SoundfontSequence(synth, events)
        } catch (e) {
          this.fail(e)
        }
      },
      (e: unknown) => this.fail(e),
    )
  }

  private fail(e: unknown): void {
    this.failed = true
    this.post({ type: 'failed', message: e instanceof Error ? e.message : String(e) })
  }

  private post(event: SoundfontProcessorEvent): void {
    this.port.postMessage(event)
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    if (this.failed) return false
    const sequence = this.sequence
    const output = outputs[0]
    if (!sequence || !output || output.length < 2) return true
    if (sequence.position === 0) this.post({ type: 'started', frame: currentFrame })
    for (let i = 0; i < this.liveCount; i++) {
      const message = this.live[i]!
      for (const e of message.events) applySynthEvent(this.synth, e)
      if (message.ack !== undefined) this.post({ type: 'applied', ack: message.ack, frame: currentFrame })
    }
    this.liveCount = 0
    sequence.renderQuantum(output[0]!, output[1]!, 0, output[0]!.length)
    if (sequence.finished && !this.endedPosted) {
      this.endedPosted = true
      this.post({ type: 'ended' })
    }
    return true
  }
}

registerProcessor(SOUNDFONT_PROCESSOR, SoundfontProcessor)
