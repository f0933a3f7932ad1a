/**
 * The deck's calls as edits of the snapshot it follows (pure): load, preload, play, pause, seek,
 * stop, volume, crossfade, an item's gain. For callers without a store (tests, the media-element
 * stand-in wavesurfer.js drives); the player service sends whole snapshots instead.
 */
import { clampCrossfade } from './deck-timeline.ts'
import { requestSeq, type DeckSnapshot, type DeckState } from './deck-machine.ts'
import type { DeckItemOptions } from './deck-api.ts'

const gainOf = (options: DeckItemOptions) => (Number.isFinite(options.gainDb) ? options.gainDb! : 0)

/**
 * Loads `url`, paused, as a media element's `src` does; except the item the deck has just moved
 * on to by itself, which keeps playing.
 */
export function withLoad(state: DeckState, url: string, label: string, options: DeckItemOptions = {}): DeckSnapshot {
  const claims = state.advancedTo === url && state.phase === 'playing'
  const item = { url, label, gainDb: gainOf(options), seq: requestSeq() }
  return { ...state.desired, item, playing: claims && state.desired.playing }
}

export function withNext(desired: DeckSnapshot, url: string | null, label = '', options: DeckItemOptions = {}): DeckSnapshot {
  return { ...desired, next: url === null ? null : { url, label: label || url, gainDb: gainOf(options) } }
}

export const withPlaying = (desired: DeckSnapshot, playing: boolean): DeckSnapshot => ({ ...desired, playing })

export function withSeek(desired: DeckSnapshot, seconds: number): DeckSnapshot {
  return Number.isFinite(seconds) ? { ...desired, seek: { seconds, seq: requestSeq() } } : desired
}

export const withStop = (desired: DeckSnapshot): DeckSnapshot => ({ ...desired, item: null, next: null, playing: false })

export const withVolume = (desired: DeckSnapshot, volume: number): DeckSnapshot => ({
  ...desired,
  volume: Math.min(100, Math.max(0, Number.isFinite(volume) ? volume : 0)),
})

export const withCrossfade = (desired: DeckSnapshot, seconds: number): DeckSnapshot => ({ ...desired, crossfade: clampCrossfade(seconds) })

export function withItemGain(desired: DeckSnapshot, gainDb: number): DeckSnapshot {
  const item = desired.item
  return item ? { ...desired, item: { ...item, gainDb: Number.isFinite(gainDb) ? gainDb : 0 } } : desired
}
