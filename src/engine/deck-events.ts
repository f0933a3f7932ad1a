// What the player deck tells its listeners (the store, the media-element stand-in).

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
