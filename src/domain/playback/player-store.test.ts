import { beforeEach, describe, expect, it, vi } from 'vitest'

const toastCalls: string[] = []
vi.mock('../../lib/notify.ts', () => {
  const toast = Object.assign((m: string) => void toastCalls.push(m), {
    error: (m: string) => void toastCalls.push(`error:${m}`),
    success: (m: string) => void toastCalls.push(`success:${m}`),
  })
  return { notify: toast }
})

import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { DeckEvent } from '../../engine/player-deck.ts'
import { usePlayerStore, type DeckLike, DEFAULT_VOLUME } from './player-store.ts'
import { attachDeck } from './player-service.ts'
import { startRewardFlash, useRewardStore } from '../economy/reward-store.ts'

const [a, b, c] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0]]

/** Records what the store asks of the audio deck; events are pushed by the test. */
class RecordingDeck implements DeckLike {
  calls: string[] = []
  listener: ((e: DeckEvent) => void) | null = null
  failLoad = new Set<string>()
  async load(url: string) {
    this.calls.push(`load:${url}`)
    if (this.failLoad.has(url)) throw new Error(`Could not play: missing ${url}`)
  }
  async play() {
    this.calls.push('play')
  }
  pause() {
    this.calls.push('pause')
  }
  stop() {
    this.calls.push('stop')
  }
  seek(s: number) {
    this.calls.push(`seek:${s}`)
  }
  setVolume(v: number) {
    this.calls.push(`volume:${v}`)
  }
  on(l: (e: DeckEvent) => void) {
    this.listener = l
    return () => {}
  }
  emit(e: DeckEvent) {
    this.listener?.(e)
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0))
const st = () => usePlayerStore.getState()
let deck: RecordingDeck

beforeEach(() => {
  usePlayerStore.setState({
    currentSong: null,
    queue: [],
    isPlaying: false,
    position: 0,
    duration: 0,
    volume: DEFAULT_VOLUME,
    playId: 0,
    error: null,
  })
  deck = new RecordingDeck()
  attachDeck(deck)
  toastCalls.length = 0
})

describe('player store queue semantics', () => {
  it('starts with volume 80 and nothing playing', () => {
    expect(st().volume).toBe(80)
    expect(st().currentSong).toBeNull()
    expect(deck.calls).toContain('volume:80')
  })

  it('adding to an empty queue starts that song and bumps playId', async () => {
    expect(st().addToQueue(a)).toBe(true)
    await flush()
    expect(st().currentSong?.id).toBe(a.id)
    expect(st().isPlaying).toBe(true)
    expect(st().playId).toBe(1)
    expect(deck.calls).toEqual(['volume:80', `load:${a.audioUrl}`, 'play'])
  })

  it('playSongAt starts another song from a moment (a comment on its waveform), or seeks the current one there', async () => {
    st().playSong(a)
    await flush()
    st().playSongAt(b, 42)
    await flush()
    expect(st().currentSong?.id).toBe(b.id)
    expect(st().position).toBe(42)
    expect(deck.calls.slice(-3)).toEqual([`load:${b.audioUrl}`, 'seek:42', 'play'])
    deck.calls.length = 0
    st().playSongAt(b, 10)
    await flush()
    expect(deck.calls).toEqual(['seek:10'])
    expect(st().queue.map((s) => s.id)).toEqual([a.id, b.id])
  })

  it('adding to a non-empty queue appends without interrupting', async () => {
    st().addToQueue(a)
    st().addToQueue(b)
    await flush()
    expect(st().queue.map((s) => s.id)).toEqual([a.id, b.id])
    expect(st().currentSong?.id).toBe(a.id)
    expect(st().playId).toBe(1)
  })

  it("refuses a song already queued with 'Already in queue'", () => {
    st().addToQueue(a)
    expect(st().addToQueue({ ...a })).toBe(false)
    expect(st().queue).toHaveLength(1)
    expect(toastCalls).toContain('Already in queue')
  })

  it('next wraps from the last song to the first', async () => {
    ;[a, b, c].forEach((s) => st().addToQueue(s))
    st().next()
    expect(st().currentSong?.id).toBe(b.id)
    st().next()
    st().next()
    expect(st().currentSong?.id).toBe(a.id)
    expect(st().playId).toBe(4)
  })

  it('previous restarts when more than 3 s have played', async () => {
    ;[a, b].forEach((s) => st().addToQueue(s))
    st().next()
    await flush()
    deck.emit({ type: 'time', position: 3.5, duration: 80 })
    st().previous()
    await flush()
    expect(st().currentSong?.id).toBe(b.id)
    expect(st().position).toBe(0)
    expect(deck.calls.at(-1)).toBe('seek:0')
  })

  it('previous within 3 s goes back one, wrapping to the last', async () => {
    ;[a, b, c].forEach((s) => st().addToQueue(s))
    deck.emit({ type: 'time', position: 2, duration: 80 })
    st().previous()
    expect(st().currentSong?.id).toBe(c.id)
    st().previous()
    expect(st().currentSong?.id).toBe(b.id)
  })

  it('a finished song moves to the next and keeps playing', async () => {
    ;[a, b].forEach((s) => st().addToQueue(s))
    await flush()
    deck.emit({ type: 'ended' })
    await flush()
    expect(st().currentSong?.id).toBe(b.id)
    expect(st().isPlaying).toBe(true)
    expect(deck.calls.slice(-2)).toEqual([`load:${b.audioUrl}`, 'play'])
  })

  it('removing the current song advances; removing another keeps the current', async () => {
    ;[a, b, c].forEach((s) => st().addToQueue(s))
    st().removeFromQueue(c.id)
    expect(st().currentSong?.id).toBe(a.id)
    st().removeFromQueue(a.id)
    expect(st().currentSong?.id).toBe(b.id)
    expect(st().queue.map((s) => s.id)).toEqual([b.id])
    st().removeFromQueue(b.id)
    await flush()
    expect(st().currentSong).toBeNull()
    expect(st().isPlaying).toBe(false)
    expect(deck.calls.at(-1)).toBe('stop')
  })

  it('clearing the queue stops playback and clears the current song', async () => {
    ;[a, b].forEach((s) => st().addToQueue(s))
    st().clearQueue()
    await flush()
    expect(st()).toMatchObject({ queue: [], currentSong: null, isPlaying: false, position: 0 })
    expect(deck.calls.at(-1)).toBe('stop')
  })

  it('pause and play toggle the deck; play shows the reward flash', async () => {
    startRewardFlash()
    st().addToQueue(a)
    await flush()
    const before = useRewardStore.getState().flashKey
    st().togglePlay()
    await flush()
    expect(st().isPlaying).toBe(false)
    expect(deck.calls.at(-1)).toBe('pause')
    st().togglePlay()
    await flush()
    expect(st().isPlaying).toBe(true)
    expect(deck.calls.at(-1)).toBe('play')
    expect(useRewardStore.getState().flashKey).toBe(before + 1)
    expect(useRewardStore.getState().flashAmount).toBe(2)
  })

  it('seek clamps to the duration and volume clamps to 0..100', async () => {
    st().addToQueue(a)
    deck.emit({ type: 'time', position: 0, duration: 80 })
    st().seek(500)
    st().seek(-5)
    st().setVolume(150)
    st().setVolume(-3)
    await flush()
    expect(deck.calls).toContain('seek:80')
    expect(deck.calls).toContain('seek:0')
    expect(st().volume).toBe(0)
    expect(deck.calls).toContain('volume:100')
  })

  it('a load failure shows a clear error and the store keeps working', async () => {
    deck.failLoad.add(a.audioUrl)
    st().addToQueue(a)
    await flush()
    expect(st().isPlaying).toBe(false)
    expect(st().error).toMatch(/Could not play/)
    expect(toastCalls.some((t) => t.startsWith('error:Could not play'))).toBe(true)
    st().addToQueue(b)
    st().next()
    await flush()
    expect(st().currentSong?.id).toBe(b.id)
    expect(st().isPlaying).toBe(true)
  })
})

/** A deck that also decodes ahead: records what it is told follows the current song, and the crossfade. */
class PreloadingDeck extends RecordingDeck {
  preloads: (string | null)[] = []
  crossfade: number | null = null
  preload(url: string | null) {
    this.preloads.push(url)
  }
  setCrossfade(seconds: number) {
    this.crossfade = seconds
  }
}

describe('the deck is told what follows (gapless and crossfade)', () => {
  let pd: PreloadingDeck
  beforeEach(() => {
    pd = new PreloadingDeck()
    attachDeck(pd)
  })

  it('preloads the song after the current one, following queue edits, the wrap and a cleared queue', async () => {
    st().playSong(a)
    expect(pd.preloads.at(-1)).toBe(a.audioUrl) // a queue of one repeats it
    st().addToQueue(b)
    st().addToQueue(c)
    expect(pd.preloads.at(-1)).toBe(b.audioUrl)
    st().removeFromQueue(b.id)
    expect(pd.preloads.at(-1)).toBe(c.audioUrl)
    // At the end of the current song the deck has moved on to C; the store follows, and C's follower is A.
    pd.emit({ type: 'ended' })
    await flush()
    expect(st().currentSong?.id).toBe(c.id)
    expect(pd.calls.filter((x) => x.startsWith('load:')).at(-1)).toBe(`load:${c.audioUrl}`)
    expect(pd.preloads.at(-1)).toBe(a.audioUrl)
    st().clearQueue()
    expect(pd.preloads.at(-1)).toBeNull()
  })

  it('the crossfade setting reaches the deck in half-second steps, within 0..12 s', () => {
    expect(pd.crossfade).toBe(st().crossfadeSeconds)
    st().setCrossfade(4.26)
    expect(st().crossfadeSeconds).toBe(4.5)
    expect(pd.crossfade).toBe(4.5)
    st().setCrossfade(40)
    expect(pd.crossfade).toBe(12)
    st().setCrossfade(Number.NaN)
    expect(pd.crossfade).toBe(0)
  })

  it('a song paused while it was still loading stays paused when the load completes', async () => {
    let finish = () => {}
    pd.load = async (url: string) => {
      pd.calls.push(`load:${url}`)
      await new Promise<void>((resolve) => (finish = resolve))
    }
    st().playSong(a)
    await flush()
    st().pause()
    finish()
    await flush()
    expect(pd.calls.filter((x) => x === 'play')).toEqual([])
    expect(st().isPlaying).toBe(false)
  })
})

describe('one duration', () => {
  it('a song starts with its stored decoded length, and the file the deck plays corrects it', async () => {
    st().playSong(a)
    expect(a.seconds).toBeGreaterThan(0)
    expect(st().duration).toBe(a.seconds) // not the m:ss text's whole seconds
    await flush()
    deck.emit({ type: 'time', position: 1, duration: a.seconds! + 0.02 })
    expect(st().duration).toBe(a.seconds! + 0.02)
    // A song known only by its text (an old saved track) starts from that.
    st().playSong({ ...b, seconds: undefined, duration: '1:07' })
    expect(st().duration).toBe(67)
  })
})
