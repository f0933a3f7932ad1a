// What the player deck offers its callers (player-deck.ts) and tells its listeners (the store, the
// media-element stand-in).
import type { DeckSnapshot } from './deck-machine.ts'

export type DeckEvent =
  | { type: 'time'; position: number; duration: number }
  | { type: 'ended' }
  | { type: 'playing' }
  | { type: 'paused' }
  | { type: 'error'; message: string }

/** Per-item options. gainDb: the item's own gain in dB (0 = as recorded). */
export interface DeckItemOptions {
  gainDb?: number
}

export interface PlayerDeck {
  /** Reconciles the deck to what its store wants now. */
  follow(snapshot: DeckSnapshot): void
  /** The snapshot the deck last followed (the calls below edit it). */
  readonly desired: DeckSnapshot
  load(audioUrl: string, label: string, options?: DeckItemOptions): Promise<void>
  preload(audioUrl: string | null, label?: string, options?: DeckItemOptions): void
  play(): Promise<void>
  pause(): void
  stop(): void
  seek(seconds: number): void
  setVolume(volume: number): void
  setCrossfade(seconds: number): void
  setItemGainDb(gainDb: number): void
  /** Whether a true-peak limiter (−1 dBTP) is in the path, so normalisation may boost past the peaks. */
  readonly hasLimiter: boolean
  on(listener: (e: DeckEvent) => void): () => void
  /**
   * A media-element stand-in that follows the deck (time, duration, play/pause/ended events; setting
   * currentTime seeks), for wavesurfer.js's `media` option, which accepts such a duck-typed element.
   */
  readonly element: HTMLAudioElement
}
