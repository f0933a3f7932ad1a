/**
 * What the player store wants of the deck, as one snapshot (src/engine/deck-machine.ts): the song
 * it asked to load (with that request's number), the queue item after it, playing or paused, the
 * latest seek (with its number), volume, crossfade, and each item's loudness normalisation gain for
 * the listener's setting. The store's load and seek commands are requests (numbered once, so a
 * re-render never loads or seeks twice); everything else is read from the stores when the snapshot
 * is taken.
 */
import { requestSeq, type DeckItem, type DeckSnapshot, type LoadRequest } from '../../engine/deck-machine.ts'
import { indexOfSong, nextIndex } from '../../engine/queue.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import type { DeckCommand, PlayerState } from './player-store.ts'
import { songGainDb, type NormalisationSetting } from './loudness-normalisation.ts'

/** The requests folded in so far: the song to load and the position asked for. */
export interface DeckRequests {
  load: { song: Song; seq: number } | null
  seek: { seconds: number; seq: number } | null
}

export const NO_REQUESTS: DeckRequests = { load: null, seek: null }

/** Folds a store command into the requests; commands read from the store at snapshot time pass through. */
export function foldCommand(r: DeckRequests, c: DeckCommand): DeckRequests {
  switch (c.kind) {
    case 'load': {
      const load = { song: c.song, seq: requestSeq() }
      const seek = c.startAt && c.startAt > 0 ? { seconds: c.startAt, seq: requestSeq() } : r.seek
      return { load, seek }
    }
    case 'seek':
      return { ...r, seek: { seconds: c.seconds, seq: requestSeq() } }
    case 'stop':
      return { ...r, load: null }
    default:
      return r
  }
}

/** The queue item after the current one (wrapping, as Next does), or null. */
export function followingSong(queue: readonly Song[], current: Song | null): Song | null {
  if (!current) return null
  return queue[nextIndex(queue.length, indexOfSong(queue, current.id))] ?? null
}

export interface Loudness {
  setting: NormalisationSetting
  /** How far past the ceiling a boost may take a song's peaks (0 without the deck's limiter). */
  limitingDb: number
  /** A song's loudness measured on the server, where the Song came without it. */
  measured(song: Song): Song
}

const itemOf = (song: Song, loudness: Loudness): DeckItem => ({
  url: song.audioUrl,
  label: song.title,
  gainDb: songGainDb(loudness.measured(song), loudness.setting, loudness.limitingDb),
})

export function deckSnapshot(
  r: DeckRequests,
  player: Pick<PlayerState, 'queue' | 'currentSong' | 'isPlaying' | 'volume' | 'crossfadeSeconds'>,
  loudness: Loudness,
): DeckSnapshot {
  const item: LoadRequest | null = r.load ? { ...itemOf(r.load.song, loudness), seq: r.load.seq } : null
  const next = item ? followingSong(player.queue, player.currentSong) : null
  return {
    item,
    next: next ? itemOf(next, loudness) : null,
    playing: item !== null && player.isPlaying,
    seek: r.seek,
    volume: player.volume,
    crossfade: player.crossfadeSeconds,
  }
}
