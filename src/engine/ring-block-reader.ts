/**
 * The main thread's side of a recorder SampleRing: drains it in blocks of a fixed size, each with
 * the context frame of its first sample (the producer records where it began; the frames after it
 * are contiguous, one render quantum after another).
 *
 *   new RingBlockReader(ring, blockFrames, onBlock)
 *   .drain()        delivers every whole block readable now
 *   .drain(true)    …and then the partial rest (on stop)
 * onBlock's arrays are reused by the next block: copy what you keep.
 */
import type { SampleRing } from '../../audio-worklets/sample-ring.ts'

export type BlockHandler = (channels: Float32Array[], startFrame: number) => void

export class RingBlockReader {
  private readonly scratch: Float32Array[]
  private framesRead = 0

  constructor(
    private readonly ring: SampleRing,
    private readonly blockFrames: number,
    private readonly onBlock: BlockHandler,
  ) {
    this.scratch = Array.from({ length: ring.channels }, () => new Float32Array(blockFrames))
  }

  drain(all = false): void {
    for (;;) {
      const n = Math.min(this.ring.availableRead(), this.blockFrames)
      if (n === 0 || (n < this.blockFrames && !all)) return
      this.ring.read(this.scratch, n)
      const startFrame = this.ring.firstFrame + this.framesRead
      this.framesRead += n
      this.onBlock(n === this.blockFrames ? this.scratch : this.scratch.map((c) => c.subarray(0, n)), startFrame)
    }
  }
}
