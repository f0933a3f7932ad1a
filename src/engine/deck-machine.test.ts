import { describe, expect, it } from 'vitest'
import {
  EMPTY_SNAPSHOT,
  initialDeckState,
  requestSeq,
  transition,
  type DeckInput,
  type DeckSnapshot,
  type DeckState,
} from './deck-machine.ts'

const item = (url: string, gainDb = 0) => ({ url, label: url.toUpperCase(), gainDb, seq: requestSeq() })
const follow = (snapshot: DeckSnapshot): DeckInput => ({ type: 'follow', snapshot })

/** Runs inputs from `state`, returning the last state and every effect's kind in order. */
function run(state: DeckState, ...inputs: DeckInput[]) {
  const effects: string[] = []
  for (const input of inputs) {
    const step = transition(state, input)
    state = step.state
    effects.push(...step.effects.map((e) => e.do))
  }
  return { state, effects }
}

/** A deck that has loaded and started `url` (playing). */
function playing(url = 'a') {
  const a = item(url)
  const snapshot = { ...EMPTY_SNAPSHOT, item: a, playing: true }
  return { ...run(initialDeckState(), follow(snapshot), { type: 'loaded', seq: a.seq }, { type: 'started' }), a, snapshot }
}

describe('the deck machine', () => {
  it('loads the item asked for, starts it once loaded when playing is wanted, and is playing once started', () => {
    const a = item('a')
    const snapshot = { ...EMPTY_SNAPSHOT, item: a, playing: true }
    const asked = transition(initialDeckState(), follow(snapshot))
    expect(asked.state.phase).toBe('loading')
    expect(asked.effects).toEqual([{ do: 'load', item: a }])
    const loaded = transition(asked.state, { type: 'loaded', seq: a.seq })
    expect(loaded.state.phase).toBe('starting')
    expect(loaded.effects).toEqual([{ do: 'start' }])
    expect(transition(loaded.state, { type: 'started' }).state.phase).toBe('playing')
  })

  it('a paused load stays ready; playing wanted later starts it; paused again pauses it', () => {
    const a = item('a')
    const paused = { ...EMPTY_SNAPSHOT, item: a }
    const ready = run(initialDeckState(), follow(paused), { type: 'loaded', seq: a.seq })
    expect(ready.state.phase).toBe('ready')
    expect(ready.effects).toEqual(['load'])
    const started = run(ready.state, follow({ ...paused, playing: true }), { type: 'started' })
    expect(started.effects).toEqual(['start'])
    const again = run(started.state, follow(paused))
    expect(again.effects).toEqual(['pause'])
    expect(again.state.phase).toBe('ready')
  })

  it('a position asked for while loading is applied once loaded, before the start', () => {
    const a = item('a')
    const snapshot = { ...EMPTY_SNAPSHOT, item: a, playing: true, seek: { seconds: 42, seq: requestSeq() } }
    const step = run(initialDeckState(), follow(snapshot))
    expect(step.state.pendingSeek).toBe(42)
    const loaded = transition(step.state, { type: 'loaded', seq: a.seq })
    expect(loaded.effects).toEqual([{ do: 'seek', seconds: 42 }, { do: 'start' }])
  })

  it('applies each seek request once, and ignores an older request that arrives later', () => {
    const { state, snapshot } = playing()
    const s1 = requestSeq()
    const s2 = requestSeq()
    const newer = run(state, follow({ ...snapshot, seek: { seconds: 10, seq: s2 } }))
    expect(newer.effects).toEqual(['seek'])
    // The same snapshot again (a re-render) and an older request: nothing.
    const repeat = run(
      newer.state,
      follow({ ...snapshot, seek: { seconds: 10, seq: s2 } }),
      follow({ ...snapshot, seek: { seconds: 5, seq: s1 } }),
    )
    expect(repeat.effects).toEqual([])
  })

  it('a new load request of the same url loads it again; the same request changing its gain only sets the gain', () => {
    const { state, snapshot, a } = playing()
    const gain = transition(state, follow({ ...snapshot, item: { ...a, gainDb: -6 } }))
    expect(gain.effects).toEqual([{ do: 'itemGain', gainDb: -6 }])
    expect(gain.state.phase).toBe('playing')
    const reload = run(gain.state, follow({ ...snapshot, item: { ...a, seq: requestSeq() } }))
    expect(reload.effects).toEqual(['load'])
    expect(reload.state.phase).toBe('loading')
  })

  it('after handing over on its own, the load of that item claims it (it keeps playing); another item loads', () => {
    const { state, snapshot } = playing()
    const b = { url: 'b', label: 'B', gainDb: -3 }
    const withNext = run(state, follow({ ...snapshot, next: b }))
    expect(withNext.effects).toEqual(['next'])
    const over = transition(withNext.state, { type: 'handedOver', to: b })
    expect(over.state.advancedTo).toBe('b')
    // The next item was used up: the store's next snapshot names the one after it, even the same url.
    expect(over.state.desired.next).toBeNull()
    const claimB = item('b', -3)
    const claimed = transition(over.state, follow({ ...snapshot, item: claimB, next: b }))
    expect(claimed.effects).toEqual([
      { do: 'claim', item: claimB },
      { do: 'next', item: b },
    ])
    expect(claimed.state.phase).toBe('playing')
    expect(claimed.state.advancedTo).toBeNull()

    const other = transition(over.state, follow({ ...snapshot, item: item('c') }))
    expect(other.effects.map((e) => e.do)).toEqual(['load'])
  })

  it('at its end with nothing to follow it is ended; only a new play (paused, then playing) starts it from there', () => {
    const { state, snapshot } = playing()
    const ended = transition(state, { type: 'reachedEnd' })
    expect(ended.state.phase).toBe('ended')
    // Still "playing" in the store (it is moving on): nothing restarts.
    expect(run(ended.state, follow(snapshot)).effects).toEqual([])
    const replay = run(ended.state, follow({ ...snapshot, playing: false }), follow(snapshot))
    expect(replay.effects).toEqual(['start'])
  })

  it('a load that fails reports its words once and leaves the deck failed until another request', () => {
    const a = item('a')
    const asked = transition(initialDeckState(), follow({ ...EMPTY_SNAPSHOT, item: a, playing: true }))
    const failed = transition(asked.state, { type: 'loadFailed', seq: a.seq, message: 'Could not play "A": the file is missing.' })
    expect(failed.effects).toEqual([{ do: 'error', message: 'Could not play "A": the file is missing.' }])
    expect(failed.state.phase).toBe('failed')
    // A stale report (an older request) changes nothing.
    expect(transition(failed.state, { type: 'loaded', seq: a.seq }).state.phase).toBe('failed')
  })

  it('a load superseded by a newer one ignores the older one finishing', () => {
    const a = item('a')
    const b = item('b')
    const s = run(initialDeckState(), follow({ ...EMPTY_SNAPSHOT, item: a }), follow({ ...EMPTY_SNAPSHOT, item: b }))
    expect(s.effects).toEqual(['load', 'load'])
    expect(transition(s.state, { type: 'loaded', seq: a.seq }).state.phase).toBe('loading')
    expect(transition(s.state, { type: 'loaded', seq: b.seq }).state.phase).toBe('ready')
  })

  it('a pause while starting pauses; a start that fails reports its words (a superseded one does not)', () => {
    const a = item('a')
    const snapshot = { ...EMPTY_SNAPSHOT, item: a, playing: true }
    const starting = run(initialDeckState(), follow(snapshot), { type: 'loaded', seq: a.seq }).state
    expect(run(starting, follow({ ...snapshot, playing: false })).effects).toEqual(['pause'])
    const blocked = transition(starting, { type: 'startFailed', message: 'blocked' })
    expect(blocked.effects).toEqual([{ do: 'error', message: 'blocked' }])
    expect(blocked.state.phase).toBe('ready')
    expect(transition(starting, { type: 'startFailed', message: null }).effects).toEqual([])
  })

  it('volume and crossfade follow as settings, before the item; no item unloads everything', () => {
    const { state, snapshot } = playing()
    const step = transition(state, follow({ ...snapshot, volume: 50, crossfade: 4 }))
    expect(step.effects).toEqual([
      { do: 'volume', volume: 50 },
      { do: 'crossfade', seconds: 4 },
    ])
    const gone = transition(step.state, follow({ ...step.state.desired, item: null, playing: false }))
    expect(gone.effects).toEqual([{ do: 'unload' }])
    expect(gone.state.phase).toBe('empty')
  })

  it('the new item is loaded before the one to follow it is named (its buffer decoded ahead is still there)', () => {
    const { state, snapshot } = playing()
    const b = item('b')
    const step = transition(state, follow({ ...snapshot, item: b, next: { url: 'c', label: 'C', gainDb: 0 } }))
    expect(step.effects.map((e) => e.do)).toEqual(['load', 'next'])
  })
})
