/**
 * What the player deck should do, as a pure state machine (no audio; unit-tested in Node).
 *
 * The deck follows a snapshot of what its store wants (DeckSnapshot: the item and its load request,
 * the item to follow it, playing or paused, the latest position request, volume, crossfade) and
 * reports what the audio did (loaded, started, handed over to the next item, reached its end).
 * `transition(state, input)` returns the deck's new state and the effects for the audio graph to
 * carry out, in order. Requests carry sequence numbers from one counter (`requestSeq`), so a load
 * or a seek is applied once, and an older request arriving late (from another caller) is ignored.
 *
 * Phases:
 *   empty     nothing loaded
 *   loading   an item is being fetched or decoded (or its stream opened)
 *   ready     loaded and paused (at a position)
 *   starting  asked to play; the context, limiter or media element is not running yet
 *   playing   sounding; the deck hands over to the next item on its own
 *   ended     played to its end with nothing to follow (a play starts it again from 0)
 *   failed    the item could not be loaded (reported once); a new load request leaves it
 */

export interface DeckItem {
  url: string
  label: string
  /** The item's own gain in dB (loudness normalisation; 0 = as recorded). */
  gainDb: number
}

/** A load request: the item and its request number (a new number loads it again). */
export type LoadRequest = DeckItem & { seq: number }

export interface DeckSnapshot {
  item: LoadRequest | null
  next: DeckItem | null
  playing: boolean
  /** The latest position request (seconds); applied once per seq. */
  seek: { seconds: number; seq: number } | null
  volume: number
  crossfade: number
}

export type DeckPhase = 'empty' | 'loading' | 'ready' | 'starting' | 'playing' | 'ended' | 'failed'

export interface DeckState {
  phase: DeckPhase
  /** The item held (or being loaded), with the request that brought it. */
  item: LoadRequest | null
  /** The url the deck moved on to by itself at the previous item's end, until a load request claims it. */
  advancedTo: string | null
  /** The last position request applied (or waiting for a load). */
  seekSeq: number
  /** Where a loading item starts once loaded. */
  pendingSeek: number | null
  /** The snapshot last followed. */
  desired: DeckSnapshot
}

export type DeckInput =
  | { type: 'follow'; snapshot: DeckSnapshot }
  | { type: 'loaded'; seq: number }
  | { type: 'loadFailed'; seq: number; message: string }
  | { type: 'started' }
  | { type: 'startFailed'; message: string | null }
  | { type: 'handedOver'; to: DeckItem }
  | { type: 'reachedEnd' }

export type DeckEffect =
  | { do: 'volume'; volume: number }
  | { do: 'crossfade'; seconds: number }
  | { do: 'load'; item: LoadRequest }
  /** The item the deck moved on to is the one asked for: it keeps playing, with the request's label and gain. */
  | { do: 'claim'; item: LoadRequest }
  | { do: 'unload' }
  | { do: 'itemGain'; gainDb: number }
  | { do: 'next'; item: DeckItem | null }
  | { do: 'seek'; seconds: number }
  | { do: 'start' }
  | { do: 'pause' }
  | { do: 'error'; message: string }

export const EMPTY_SNAPSHOT: DeckSnapshot = { item: null, next: null, playing: false, seek: null, volume: 80, crossfade: 0 }

export const initialDeckState = (): DeckState => ({
  phase: 'empty',
  item: null,
  advancedTo: null,
  seekSeq: 0,
  pendingSeek: null,
  desired: EMPTY_SNAPSHOT,
})

let lastSeq = 0
/** A new request number, greater than every one before it (loads and seeks share the counter). */
export const requestSeq = (): number => ++lastSeq

const sameItem = (a: DeckItem | null, b: DeckItem | null) =>
  a === b || (a !== null && b !== null && a.url === b.url && a.label === b.label && a.gainDb === b.gainDb)

const holdsAudio = (phase: DeckPhase) => phase === 'ready' || phase === 'starting' || phase === 'playing' || phase === 'ended'

interface Step {
  state: DeckState
  effects: DeckEffect[]
}

export function transition(state: DeckState, input: DeckInput): Step {
  switch (input.type) {
    case 'follow':
      return follow(state, input.snapshot)
    case 'loaded':
      return loaded(state, input.seq)
    case 'loadFailed':
      if (state.phase !== 'loading' || state.item?.seq !== input.seq) return { state, effects: [] }
      return { state: { ...state, phase: 'failed', pendingSeek: null }, effects: [{ do: 'error', message: input.message }] }
    case 'started':
      if (state.phase !== 'starting') return { state, effects: [] }
      return { state: { ...state, phase: 'playing' }, effects: [] }
    case 'startFailed':
      if (state.phase !== 'starting') return { state, effects: [] }
      return { state: { ...state, phase: 'ready' }, effects: input.message ? [{ do: 'error', message: input.message }] : [] }
    case 'handedOver': {
      if (state.phase !== 'playing' || !state.item) return { state, effects: [] }
      // The next item was used up: the store's next snapshot says which follows it (maybe the same url).
      const item = { ...input.to, seq: state.item.seq }
      return { state: { ...state, item, advancedTo: input.to.url, desired: { ...state.desired, next: null } }, effects: [] }
    }
    case 'reachedEnd':
      if (state.phase !== 'playing') return { state, effects: [] }
      return { state: { ...state, phase: 'ended' }, effects: [] }
  }
}

/** Settings, then the item, the one to follow it, the position and playing, in that order. */
function follow(state: DeckState, snapshot: DeckSnapshot): Step {
  const before = state.desired
  const effects: DeckEffect[] = []
  if (snapshot.volume !== before.volume) effects.push({ do: 'volume', volume: snapshot.volume })
  if (snapshot.crossfade !== before.crossfade) effects.push({ do: 'crossfade', seconds: snapshot.crossfade })
  let next: DeckState = { ...followItem(state, snapshot.item, effects), desired: snapshot }
  if (!sameItem(snapshot.next, before.next)) effects.push({ do: 'next', item: snapshot.next })
  next = followSeek(next, snapshot.seek, effects)
  next = followPlaying(next, snapshot.playing, before.playing, effects)
  return { state: next, effects }
}

function followItem(state: DeckState, item: LoadRequest | null, effects: DeckEffect[]): DeckState {
  const held = state.item
  if (item === null) {
    if (held === null) return state
    effects.push({ do: 'unload' })
    return { ...state, phase: 'empty', item: null, advancedTo: null, pendingSeek: null }
  }
  if (held === null || item.seq > held.seq) {
    if (state.advancedTo === item.url && state.phase === 'playing') {
      effects.push({ do: 'claim', item })
      return { ...state, item, advancedTo: null }
    }
    effects.push({ do: 'load', item })
    return { ...state, phase: 'loading', item, advancedTo: null, pendingSeek: null }
  }
  if (item.seq === held.seq && item.gainDb !== held.gainDb) effects.push({ do: 'itemGain', gainDb: item.gainDb })
  return item.seq === held.seq ? { ...state, item: { ...held, label: item.label, gainDb: item.gainDb } } : state
}

function followSeek(state: DeckState, seek: DeckSnapshot['seek'], effects: DeckEffect[]): DeckState {
  if (!seek || seek.seq <= state.seekSeq || !Number.isFinite(seek.seconds)) return state
  if (state.phase === 'loading') return { ...state, seekSeq: seek.seq, pendingSeek: seek.seconds }
  if (!holdsAudio(state.phase)) return { ...state, seekSeq: seek.seq }
  effects.push({ do: 'seek', seconds: seek.seconds })
  return { ...state, seekSeq: seek.seq }
}

function followPlaying(state: DeckState, playing: boolean, wasPlaying: boolean, effects: DeckEffect[]): DeckState {
  const { phase } = state
  if (playing && (phase === 'ready' || (phase === 'ended' && !wasPlaying))) {
    effects.push({ do: 'start' })
    return { ...state, phase: 'starting' }
  }
  if (!playing && (phase === 'playing' || phase === 'starting')) {
    effects.push({ do: 'pause' })
    return { ...state, phase: 'ready' }
  }
  return state
}

function loaded(state: DeckState, seq: number): Step {
  if (state.phase !== 'loading' || state.item?.seq !== seq) return { state, effects: [] }
  const effects: DeckEffect[] = []
  if (state.pendingSeek !== null && state.pendingSeek > 0) effects.push({ do: 'seek', seconds: state.pendingSeek })
  const ready: DeckState = { ...state, phase: 'ready', pendingSeek: null }
  if (!state.desired.playing) return { state: ready, effects }
  effects.push({ do: 'start' })
  return { state: { ...ready, phase: 'starting' }, effects }
}
