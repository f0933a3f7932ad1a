/**
 * The player deck's shared output, built on first use: the items meet in one gain, then the
 * true-peak limiter (−1 dBTP; true-peak-limiter.ts, once its module has loaded), then the volume
 * gain, then the master bus. Volume 0..100 maps to gain (v/100)² (deck-gain.ts).
 */
import type { IGainNode } from 'standardized-audio-context'
import { getAudioContext } from './audio-context.ts'
import { getMasterBus } from './master-bus.ts'
import { createTruePeakLimiter, loadTruePeakLimiter } from './true-peak-limiter.ts'
import { volumeToGain } from './deck-gain.ts'
import type { Ctx } from './deck-core.ts'

export class DeckGraph {
  private context: Ctx | null = null
  private output: IGainNode<Ctx> | null = null
  private items: IGainNode<Ctx> | null = null
  private volume = 80
  private limited = true
  /** Resolves once the limiter is in the path (or has failed to load). */
  limiterReady: Promise<void> | null = null

  get ctx(): Ctx {
    return (this.context ??= getAudioContext())
  }

  /** The context if the deck has used it yet (no context is created just to read the clock). */
  get ctxIfAny(): Ctx | null {
    return this.context
  }

  /** Whether the true-peak limiter is in the path (false if its worklet could not load). */
  get hasLimiter(): boolean {
    return this.limited
  }

  /** Where the items meet (the limiter's input). */
  input(): IGainNode<Ctx> {
    if (this.items) return this.items
    const ctx = this.ctx
    this.output = ctx.createGain()
    this.output.gain.value = volumeToGain(this.volume)
    this.output.connect(getMasterBus().input)
    this.items = ctx.createGain()
    this.items.connect(this.output)
    this.limiterReady = this.insertLimiter(ctx, this.items, this.output)
    return this.items
  }

  setVolume(volume: number) {
    this.volume = Math.min(100, Math.max(0, Number.isFinite(volume) ? volume : 0))
    if (this.output) this.output.gain.setTargetAtTime(volumeToGain(this.volume), this.output.context.currentTime, 0.015)
  }

  private async insertLimiter(ctx: Ctx, items: IGainNode<Ctx>, output: IGainNode<Ctx>): Promise<void> {
    try {
      await loadTruePeakLimiter(ctx)
      const limiter = createTruePeakLimiter(ctx)
      limiter.connect(output)
      items.disconnect()
      items.connect(limiter)
    } catch (error) {
      // Normalisation then keeps every song's true peak under the ceiling by gain alone (a song
      // with little headroom plays below the target), as it did before the limiter.
      this.limited = false
      console.warn('[player] the true-peak limiter could not start; songs play unlimited', error)
    }
  }
}
