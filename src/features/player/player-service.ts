/**
 * The player's wiring: executes the store's deck commands on the deck (src/engine/player-deck.ts,
 * loaded on the first command so no page pays for it before playing) and feeds the deck's events
 * back to the store. Started once per page by the app's services; `attachDeck` swaps in another
 * deck (tests in Node, where there is no HTMLAudioElement) and starts the service.
 */
import { applyDeckEvent, onDeckCommand, reportError, usePlayerStore, type DeckCommand, type DeckLike } from './player-store.ts'

let deck: DeckLike | null = null
let deckFactory: (() => Promise<DeckLike>) | null = () => import('../../engine/player-deck.ts').then((m) => m.getPlayerDeck())
let deckPromise: Promise<DeckLike> | null = null
let unsubscribeDeck: (() => void) | null = null
let stopCommands: (() => void) | null = null
// Each load (and stop) supersedes the previous one: a slow load that finishes late does nothing.
let loadToken = 0

/** Replaces the deck (tests in Node; there is no HTMLAudioElement there). */
export function attachDeck(d: DeckLike): void {
  unsubscribeDeck?.()
  deck = d
  deckPromise = Promise.resolve(d)
  deckFactory = null
  unsubscribeDeck = d.on(applyDeckEvent)
  d.setVolume(usePlayerStore.getState().volume)
  startPlayerService()
}

export function startPlayerService(): void {
  stopCommands ??= onDeckCommand(run)
}

function withDeck(): Promise<DeckLike> {
  if (deckPromise) return deckPromise
  if (!deckFactory) return Promise.reject(new Error('no player deck'))
  deckPromise = deckFactory().then((d) => {
    attachDeck(d)
    return d
  })
  return deckPromise
}

function run(c: DeckCommand): void {
  switch (c.kind) {
    case 'load': {
      const token = ++loadToken
      const { song, autoplay } = c
      void withDeck()
        .then(async (d) => {
          await d.load(song.audioUrl, song.title)
          if (token !== loadToken) return
          if (autoplay) await d.play()
        })
        .catch((err: unknown) => {
          if (token !== loadToken) return
          reportError(err instanceof Error ? err.message : `Could not play "${song.title}".`)
        })
      break
    }
    case 'play':
      void withDeck()
        .then((d) => d.play())
        .catch((err: unknown) => reportError(err instanceof Error ? err.message : 'Playback failed.'))
      break
    case 'pause':
      void withDeck().then((d) => d.pause(), () => {})
      break
    case 'seek':
      void withDeck().then((d) => d.seek(c.seconds), () => {})
      break
    case 'stop':
      loadToken++
      void withDeck().then((d) => d.stop(), () => {})
      break
    case 'volume':
      deck?.setVolume(c.volume)
      break
  }
}
