/**
 * A test double of the player's audio deck for Node tests of the listening features: it plays
 * nothing, and the test pushes the deck's events itself through `listener` (time, ended, …).
 */
import type { DeckEvent } from '../../engine/player-deck.ts'
import type { DeckLike } from './player-store.ts'

export class SilentDeck implements DeckLike {
  listener: ((e: DeckEvent) => void) | null = null
  async load() {}
  async play() {}
  pause() {}
  stop() {}
  seek() {}
  setVolume() {}
  on(l: (e: DeckEvent) => void) {
    this.listener = l
    return () => {}
  }
}
