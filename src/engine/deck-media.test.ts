import { describe, expect, it, vi } from 'vitest'
import { DeckMedia, type MediaDeck } from './deck-media.ts'

// wavesurfer.js drives the deck through this stand-in as if it were an <audio>: it must read the
// deck's time and state, seek and play through it, and hear the deck's events as media events.

function fakeDeck() {
  return {
    position: 12.5,
    duration: 80,
    isPlaying: false,
    hasItem: true,
    seek: vi.fn((_seconds: number) => {}),
    play: vi.fn(async () => {}),
    pause: vi.fn(() => {}),
  } satisfies MediaDeck
}

describe('DeckMedia', () => {
  it('reads and drives the deck like a media element', async () => {
    const deck = fakeDeck()
    const media = new DeckMedia(deck)
    expect([media.currentTime, media.duration, media.paused, media.readyState]).toEqual([12.5, 80, true, 4])
    media.currentTime = 30
    expect(deck.seek).toHaveBeenCalledWith(30)
    await media.play()
    media.pause()
    expect(deck.play).toHaveBeenCalledOnce()
    expect(deck.pause).toHaveBeenCalledOnce()
    const empty = new DeckMedia({ ...fakeDeck(), hasItem: false })
    expect(Number.isNaN(empty.duration)).toBe(true)
    expect(empty.readyState).toBe(0)
  })

  it("turns the deck's events into media events: durationchange once per new length, play/playing, pause, ended, error", () => {
    const media = new DeckMedia(fakeDeck())
    const fired: string[] = []
    for (const type of ['durationchange', 'timeupdate', 'play', 'playing', 'pause', 'ended', 'error'])
      media.addEventListener(type, () => fired.push(type))
    media.onDeckEvent({ type: 'time', position: 1, duration: 80 })
    media.onDeckEvent({ type: 'time', position: 2, duration: 80 })
    media.onDeckEvent({ type: 'playing' })
    media.onDeckEvent({ type: 'paused' })
    media.onDeckEvent({ type: 'ended' })
    expect(media.ended).toBe(true)
    media.onDeckEvent({ type: 'error', message: 'Could not play' })
    expect(fired).toEqual(['durationchange', 'timeupdate', 'timeupdate', 'play', 'playing', 'pause', 'ended', 'error'])
  })
})
