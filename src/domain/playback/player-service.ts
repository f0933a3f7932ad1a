/**
 * The player's wiring: executes the store's deck commands on the deck (src/engine/player-deck.ts,
 * loaded on the first command so no page pays for it before playing) and feeds the deck's events
 * back to the store. Started once per page by the app's services; `attachDeck` swaps in another
 * deck (tests in Node, where there is no Web Audio) and starts the service. It also keeps the deck
 * told which queue item follows the current one (decoded ahead for a gapless or crossfaded start)
 * and the crossfade setting.
 *
 * The app's deck follows the store from snapshots (deck-snapshot.ts): the store's load and seek
 * commands become numbered requests, and on every change of the player or normalisation store the
 * service sends the deck what is wanted now; the deck reconciles its audio to it. A deck without
 * `follow` (a test double) is driven call by call instead.
 */
import { applyDeckEvent, onDeckCommand, reportError, usePlayerStore, type DeckCommand, type DeckLike } from './player-store.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { PLAYER_STORAGE_KEY, SAVE_DELAY_MS, playerStorage, serializePlayer } from './player-persistence.ts'
import { MAX_LIMITING_DB, songGainDb } from './loudness-normalisation.ts'
import { useNormalisationStore } from './normalisation-store.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { NO_REQUESTS, deckSnapshot, foldCommand, followingSong, type DeckRequests } from './deck-snapshot.ts'

export { followingSong }

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
  if (d.follow) {
    startPlayerService()
    return pushSnapshot()
  }
  d.setVolume(usePlayerStore.getState().volume)
  applyNormalisation(d)
  d.setCrossfade?.(usePlayerStore.getState().crossfadeSeconds)
  startPlayerService()
  preloadNext()
}

export function startPlayerService(): void {
  stopCommands ??= onDeckCommand(run)
  startPlayerPersistence()
  stopNormalisation ??= useNormalisationStore.subscribe((s, prev) => {
    if (deck?.follow) return pushSnapshot()
    if (s.setting !== prev.setting && deck) {
      applyNormalisation(deck)
      preloadNext()
    }
  })
  stopFollowingQueue ??= usePlayerStore.subscribe((s, prev) => {
    if (deck?.follow) return pushSnapshot()
    if (s.queue !== prev.queue || s.currentSong !== prev.currentSong) preloadNext()
  })
}

let stopNormalisation: (() => void) | null = null

/** How far past the ceiling a boost may take a song's peaks: only a deck with the limiter takes them back. */
const limitingDb = (d: DeckLike): number => (d.hasLimiter ? MAX_LIMITING_DB : 0)

/** Loudness of server songs that came without it, asked once per song id (null: not measured). */
const serverLoudness = new Map<string, Promise<Pick<Song, 'loudnessLufs' | 'truePeakDbtp'> | null>>()
let loudnessLookup = async (id: string): Promise<Pick<Song, 'loudnessLufs' | 'truePeakDbtp'> | null> => {
  const { fetchSongLoudness } = await import('../../backend/publishing.ts')
  const row = await fetchSongLoudness(id)
  if (row?.loudness_lufs == null) return null
  return { loudnessLufs: row.loudness_lufs, ...(row.true_peak_dbtp != null ? { truePeakDbtp: row.true_peak_dbtp } : {}) }
}

/** Replaces the server lookup (tests in Node). */
export function setLoudnessLookup(lookup: typeof loudnessLookup): void {
  loudnessLookup = lookup
  serverLoudness.clear()
}

/** Published songs live in Storage; only they can have a server measurement the Song lacks. */
const measuredOnServer = (song: Song) => song.audioUrl.startsWith('/storage/')

/**
 * The current song's loudness normalisation gain for the listener's setting, on the deck. A
 * published song that reached the player without its loudness gets it from the server; playback
 * does not wait for that answer (the gain follows within the deck's 15 ms smoothing).
 */
function applyNormalisation(d: DeckLike, song = usePlayerStore.getState().currentSong): void {
  const setting = useNormalisationStore.getState().setting
  d.setItemGainDb?.(songGainDb(song, setting, limitingDb(d)))
  const lookup = song && lookUpLoudness(song)
  void lookup?.then((measured) => {
    if (!measured || !song || usePlayerStore.getState().currentSong?.id !== song.id) return
    d.setItemGainDb?.(songGainDb({ ...song, ...measured }, useNormalisationStore.getState().setting, limitingDb(d)))
  })
}

/** The server's measurement of a published song that came without its loudness (asked once). */
function lookUpLoudness(song: Song | null) {
  if (!song || song.loudnessLufs !== undefined || !measuredOnServer(song)) return null
  let lookup = serverLoudness.get(song.id)
  if (!lookup) {
    lookup = loudnessLookup(song.id).catch((error: unknown) => {
      console.warn('[player] the song’s loudness could not be read; it plays without normalisation', error)
      return null
    })
    serverLoudness.set(song.id, lookup)
    void lookup.then((m) => m && measuredLoudness.set(song.id, m) && deck?.follow && pushSnapshot())
  }
  return lookup
}

const measuredLoudness = new Map<string, Pick<Song, 'loudnessLufs' | 'truePeakDbtp'>>()

let stopFollowingQueue: (() => void) | null = null
let requests: DeckRequests = NO_REQUESTS
let pushQueued = false
let lastPushed = ''

/**
 * Sends the deck what the stores want now, once per task: a store action sets its state and then
 * issues its command, and the deck must see both together (the new item and the one after it).
 */
function pushSnapshot(): void {
  if (pushQueued) return
  pushQueued = true
  queueMicrotask(() => {
    pushQueued = false
    const d = deck
    if (!d?.follow) return
    const song = requests.load?.song ?? null
    // Playback does not wait for a server measurement; the gain follows when it arrives.
    lookUpLoudness(song)
    const loudness = {
      setting: useNormalisationStore.getState().setting,
      limitingDb: limitingDb(d),
      measured: (s: Song) => ({ ...s, ...measuredLoudness.get(s.id) }),
    }
    const snapshot = deckSnapshot(requests, usePlayerStore.getState(), loudness)
    // Only a change is sent: the deck's own callers (the waveform's seeks) are not undone by a time event.
    const key = JSON.stringify(snapshot)
    if (key === lastPushed) return
    lastPushed = key
    d.follow(snapshot)
  })
}

/** Tells a loaded deck what to decode ahead; a page that has not played yet loads nothing for it. */
function preloadNext(): void {
  if (!deck?.preload) return
  const { queue, currentSong } = usePlayerStore.getState()
  const next = followingSong(queue, currentSong)
  // Its own normalisation from its first sample (the store sets it again when the item takes over).
  const gainDb = songGainDb(next, useNormalisationStore.getState().setting, limitingDb(deck))
  deck.preload(next?.audioUrl ?? null, next?.title, { gainDb })
}

let persisting = false

/** Keeps the queue, current song, position and volume in localStorage for the next visit. */
function startPlayerPersistence(): void {
  const storage = playerStorage()
  if (persisting || !storage) return
  persisting = true
  let timer: ReturnType<typeof setTimeout> | null = null
  const write = () => {
    if (timer) clearTimeout(timer)
    timer = null
    try {
      storage.setItem(PLAYER_STORAGE_KEY, serializePlayer(usePlayerStore.getState()))
    } catch (error) {
      // A full or blocked storage costs only the restore after a reload, never playback.
      console.warn('[player] could not save the player state', error)
    }
  }
  usePlayerStore.subscribe((s, prev) => {
    if (
      s.queue === prev.queue &&
      s.currentSong === prev.currentSong &&
      s.position === prev.position &&
      s.volume === prev.volume &&
      s.crossfadeSeconds === prev.crossfadeSeconds &&
      s.isPlaying === prev.isPlaying
    )
      return
    timer ??= setTimeout(write, SAVE_DELAY_MS)
  })
  // Written as the page goes: the position to the second and whether it was playing, which the
  // debounced write may not have caught yet.
  addEventListener('pagehide', write)
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
  requests = foldCommand(requests, c)
  if (deck?.follow) return pushSnapshot()
  if (deck) return runOnCalls(c)
  // The first command that needs sound loads the deck; until then only the requests are kept.
  if (c.kind !== 'load' && c.kind !== 'play' && c.kind !== 'seek') return
  void withDeck().then(
    (d) => (d.follow ? pushSnapshot() : runOnCalls(c)),
    (err: unknown) => c.kind !== 'seek' && reportError(errorMessage(err)),
  )
}

/** A deck without `follow` (a test double), driven call by call. */
function runOnCalls(c: DeckCommand): void {
  switch (c.kind) {
    case 'load': {
      const token = ++loadToken
      const { song, autoplay, startAt } = c
      void withDeck()
        .then(async (d) => {
          await d.load(song.audioUrl, song.title)
          if (token !== loadToken) return
          applyNormalisation(d, song)
          if (startAt && startAt > 0) d.seek(startAt)
          // Paused while the song was being fetched and decoded: it stays paused.
          if (autoplay && usePlayerStore.getState().isPlaying) await d.play()
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
        .catch((err: unknown) => reportError(errorMessage(err)))
      break
    case 'pause':
      void withDeck().then(
        (d) => d.pause(),
        () => {},
      )
      break
    case 'seek':
      void withDeck().then(
        (d) => d.seek(c.seconds),
        () => {},
      )
      break
    case 'stop':
      loadToken++
      void withDeck().then(
        (d) => d.stop(),
        () => {},
      )
      break
    case 'volume':
      deck?.setVolume(c.volume)
      break
    case 'crossfade':
      deck?.setCrossfade?.(c.seconds)
      break
  }
}
