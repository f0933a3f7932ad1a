/**
 * Recorder tap: hands its input to the main thread, through a SampleRing in a SharedArrayBuffer
 * when the page is cross-origin isolated, else (fallback) by posting blocks; recorder-params.ts
 * has the contract. Output: silence (one output, so the node can hang off the destination and stay
 * pulled).
 */
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'
import { RECORDER_PROCESSOR, type RecorderCommand, type RecorderEvent, type RecorderOptions } from './recorder-params.ts'
import { SampleRing } from './sample-ring.ts'

interface FrameSink {
  push(input: Float32Array[], frames: number): void
  /** Hands over whatever is held back (the ring holds nothing back). */
  flush(): void
}

/** The normal transport: every quantum straight into the ring; no allocation, no message. */
class RingSink implements FrameSink {
  constructor(private readonly ring: SampleRing) {}

  push(input: Float32Array[], frames: number): void {
    this.ring.beginAt(currentFrame)
    // A mono input feeds every ring channel (the ring repeats channel 0); no input is silence.
    if (input[0]) this.ring.write(input, frames)
    else this.ring.writeSilence(frames)
  }

  flush(): void {}
}

/** The fallback transport: fixed-size blocks posted (transferred) to the main thread. */
class MessageSink implements FrameSink {
  private block: Float32Array[]
  private filled = 0
  private blockStart = -1

  constructor(
    private readonly port: MessagePort,
    private readonly blockFrames: number,
    private readonly channels: number,
    private readonly capture: boolean,
  ) {
    this.block = this.freshBlock()
  }

  push(input: Float32Array[], frames: number): void {
    let offset = 0
    while (offset < frames) {
      if (this.blockStart < 0) this.blockStart = currentFrame + offset
      const n = Math.min(frames - offset, this.blockFrames - this.filled)
      if (this.capture) {
        for (let c = 0; c < this.channels; c++) {
          const src = input[c] ?? input[0]
          const dst = this.block[c]!
          const at = this.filled
          if (src) for (let i = 0; i < n; i++) dst[at + i] = src[offset + i]!
          else dst.fill(0, at, at + n)
        }
      }
      this.filled += n
      offset += n
      if (this.filled === this.blockFrames) this.flush()
    }
  }

  flush(): void {
    if (this.filled === 0) return
    if (!this.capture) {
      this.port.postMessage({ type: 'tick', frame: this.blockStart + this.filled } satisfies RecorderEvent)
    } else {
      const channels = this.filled === this.blockFrames ? this.block : this.block.map((c) => c.slice(0, this.filled))
      this.port.postMessage(
        { type: 'block', startFrame: this.blockStart, channels } satisfies RecorderEvent,
        channels.map((c) => c.buffer as ArrayBuffer),
      )
      // The sent block's buffers now belong to the main thread.
      this.block = this.freshBlock()
    }
    this.filled = 0
    this.blockStart = -1
  }

  private freshBlock(): Float32Array[] {
    if (!this.capture) return []
    return Array.from({ length: this.channels }, () => new Float32Array(this.blockFrames))
  }
}

const NO_INPUT: Float32Array[] = []

class RecorderProcessor extends AudioWorkletProcessor {
  private readonly sink: FrameSink
  private ended = false

  constructor(options: { processorOptions?: RecorderOptions }) {
    super()
    const o = options.processorOptions ?? {}
    this.sink = o.ring
      ? new RingSink(new SampleRing(o.ring))
      : new MessageSink(
          this.port,
          Math.max(RENDER_QUANTUM_FRAMES, Math.floor(o.blockFrames ?? 4096)),
          o.channels === 2 ? 2 : 1,
          o.capture !== false,
        )
    this.port.onmessage = (e: MessageEvent<RecorderCommand>) => {
      if (e.data !== 'flush' && e.data !== 'stop') return
      this.sink.flush()
      this.port.postMessage({ type: 'flushed' } satisfies RecorderEvent)
      if (e.data === 'stop') this.ended = true
    }
  }

  process(inputs: Float32Array[][]): boolean {
    if (this.ended) return false
    const input = inputs[0] ?? NO_INPUT
    this.sink.push(input, input[0]?.length ?? RENDER_QUANTUM_FRAMES)
    return true
  }
}

registerProcessor(RECORDER_PROCESSOR, RecorderProcessor)
