/**
 * Recorder tap: copies its input into fixed-size blocks and posts each full block to the main
 * thread (transferring the buffers), with the block's peak and RMS for a live input meter.
 *
 * processorOptions: { blockFrames: number (default 4096), channels: 1 | 2 (default 1), capture?: boolean }
 *   capture false turns it into a pure progress tap: it posts only { type: 'tick', frame } per block
 *   (used to report the progress of offline renders, which have no other progress signal).
 * Messages in:  'flush'  → posts the partial block (if any) then { type: 'flushed' }
 *               'stop'   → like flush, then the processor ends (process returns false)
 * Messages out: { type: 'block', startFrame, channels: Float32Array[], peak, rms }
 *               { type: 'tick', frame } | { type: 'flushed' }
 * Output: silence (one output, so the node can hang off the destination and stay pulled).
 * Allocation happens only when a block is handed over (a fresh block replaces the sent one),
 * never per render quantum.
 */
import { RENDER_QUANTUM_FRAMES } from './render-quantum.ts'

interface RecorderOptions {
  blockFrames?: number
  channels?: number
  capture?: boolean
}

class RecorderProcessor extends AudioWorkletProcessor {
  private readonly blockFrames: number
  private readonly channelCount: number
  private readonly capture: boolean
  private block: Float32Array[]
  private filled = 0
  private blockStart = -1
  private ended = false

  constructor(options: { processorOptions?: RecorderOptions }) {
    super()
    const o = options.processorOptions ?? {}
    this.blockFrames = Math.max(RENDER_QUANTUM_FRAMES, Math.floor(o.blockFrames ?? 4096))
    this.channelCount = o.channels === 2 ? 2 : 1
    this.capture = o.capture !== false
    this.block = this.freshBlock()
    this.port.onmessage = (e: MessageEvent) => {
      if (e.data === 'flush' || e.data === 'stop') {
        this.send()
        this.port.postMessage({ type: 'flushed' })
        if (e.data === 'stop') this.ended = true
      }
    }
  }

  private freshBlock(): Float32Array[] {
    if (!this.capture) return []
    const out: Float32Array[] = []
    for (let c = 0; c < this.channelCount; c++) out.push(new Float32Array(this.blockFrames))
    return out
  }

  private send() {
    if (this.filled === 0) return
    if (!this.capture) {
      this.port.postMessage({ type: 'tick', frame: this.blockStart + this.filled })
    } else {
      const channels = this.filled === this.blockFrames ? this.block : this.block.map((c) => c.slice(0, this.filled))
      let peak = 0
      let sum = 0
      const first = channels[0]!
      for (let i = 0; i < first.length; i++) {
        const v = first[i]!
        const a = v < 0 ? -v : v
        if (a > peak) peak = a
        sum += v * v
      }
      const rms = Math.sqrt(sum / first.length)
      this.port.postMessage(
        { type: 'block', startFrame: this.blockStart, channels, peak, rms },
        channels.map((c) => c.buffer as ArrayBuffer),
      )
      this.block = this.freshBlock()
    }
    this.filled = 0
    this.blockStart = -1
  }

  process(inputs: Float32Array[][]): boolean {
    if (this.ended) return false
    const input = inputs[0] ?? []
    const frames = input[0]?.length ?? RENDER_QUANTUM_FRAMES
    let offset = 0
    while (offset < frames) {
      if (this.blockStart < 0) this.blockStart = currentFrame + offset
      const n = Math.min(frames - offset, this.blockFrames - this.filled)
      if (this.capture) {
        for (let c = 0; c < this.channelCount; c++) {
          // A mono input feeds every recorded channel; a missing input records silence.
          const src = input[c] ?? input[0]
          const dst = this.block[c]!
          const at = this.filled
          if (src) for (let i = 0; i < n; i++) dst[at + i] = src[offset + i]!
          else dst.fill(0, at, at + n)
        }
      }
      this.filled += n
      offset += n
      if (this.filled === this.blockFrames) this.send()
    }
    return true
  }
}

registerProcessor('recorder-processor', RecorderProcessor)
