/**
 * Player and queue (Zustand). Stable fields other engineers read:
 *   currentSong: Song | null, queue: Song[], isPlaying, position (s), duration (s), volume (0..100),
 *   playId: number — increments every time a song starts a fresh play (new song, wrap, restart).
 *
 * Actions: playSong(song), playSongAt(song, s), addToQueue(song) → boolean ('Already in queue' when refused),
 *   removeFromQueue(id), clearQueue(), play(), pause(), togglePlay(), next(), previous(),
 *   seek(s), setVolume(v), playQueueIndex(i), setCrossfade(seconds).
 *   crossfadeSeconds: 0..12 (0 = gapless), the overlap between consecutive queue items.
 * The store holds state and issues deck commands; the player service (player-service.ts) drives
 * the deck (src/engine/player-deck.ts) and feeds its events back. Tests may attach another deck.
 */
import { create } from 'zustand'
import { notify } from '../../lib/notify.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { indexOfSong, isQueued, nextIndex, previousAction, removeFromQueue } from '../../engine/queue.ts'
import type { DeckEvent, PlayerDeck } from '../../engine/player-deck.ts'
import { readSavedPlayer } from './player-persistence.ts'
import { DEFAULT_CROSSFADE_S, clampCrossfade } from '../../engine/deck-timeline.ts'

export const DEFAULT_VOLUME = 80
export const ALREADY_IN_QUEUE = 'Already in queue'

/**
 * The part of the deck the store drives (the real one, or a test double in Node). A deck without
 * preload/setCrossfade simply plays one item after another; without setItemGainDb, unnormalised;
 * without hasLimiter, normalisation never boosts a song's true peak past the ceiling.
 */
export type DeckLike = Pick<PlayerDeck, 'load' | 'play' | 'pause' | 'stop' | 'seek' | 'setVolume' | 'on'> &
  Partial<Pick<PlayerDeck, 'preload' | 'setCrossfade' | 'setItemGainDb' | 'hasLimiter' | 'follow'>>

export interface PlayerState {
  currentSong: Song | null
  queue: Song[]
  isPlaying: boolean
  position: number
  duration: number
  volume: number
  /** Seconds consecutive queue items overlap (equal-power); 0 = gapless. */
  crossfadeSeconds: number
  playId: number
  /** Last playback error shown to the user (also toasted), cleared by the next successful start. */
  error: string | null
  /**
   * The restored song was playing when the last page went away and has not resumed yet: the player
   * offers "Resume" (player-resume.ts resumes by itself where the browser allows sound without a click).
   */
  resumeOffered: boolean
  dismissResume: () => void
  playSong: (song: Song) => void
  /** Plays `song` from `seconds` (a comment's moment, a click on a waveform): seeks it when it is already the current one. */
  playSongAt: (song: Song, seconds: number) => void
  addToQueue: (song: Song) => boolean
  removeFromQueue: (id: string) => void
  clearQueue: () => void
  playQueueIndex: (index: number) => void
  play: () => void
  pause: () => void
  togglePlay: () => void
  next: () => void
  previous: () => void
  seek: (seconds: number) => void
  setVolume: (volume: number) => void
  setCrossfade: (seconds: number) => void
}

/** What the player service (player-service.ts) is asked to do with the deck. */
export type DeckCommand =
  /** startAt: where a restored song resumes (seconds); absent = from the start. */
  | { kind: 'load'; song: Song; autoplay: boolean; startAt?: number }
  | { kind: 'play' }
  | { kind: 'pause' }
  | { kind: 'seek'; seconds: number }
  | { kind: 'stop' }
  | { kind: 'volume'; volume: number }
  | { kind: 'crossfade'; seconds: number }

const commandListeners = new Set<(command: DeckCommand) => void>()

/** For the player service: every deck command the store's actions issue, in order. */
export function onDeckCommand(listener: (command: DeckCommand) => void): () => void {
  commandListeners.add(listener)
  return () => {
    commandListeners.delete(listener)
  }
}

function command(c: DeckCommand): void {
  for (const listener of commandListeners) listener(c)
}

/** Shows a playback failure (the service reports the deck's errors here). */
export function reportError(message: string) {
  usePlayerStore.setState({ error: message, isPlaying: false })
  // The id collapses the element's error event and the rejected play() into one notify.
  notify.error(message, { id: message })
}

/** The deck's events as the store sees them (wired by the player service). */
export function applyDeckEvent(e: DeckEvent) {
  const set = usePlayerStore.setState
  switch (e.type) {
    case 'time':
      set({ position: e.position, duration: e.duration || usePlayerStore.getState().duration })
      break
    case 'ended':
      usePlayerStore.getState().next()
      break
    case 'playing':
      // isPlaying is owned by the store's actions; a late 'playing' must not undo a pause.
      set({ error: null })
      break
    case 'paused':
      break
    case 'error':
      reportError(e.message)
      break
  }
}

/**
 * True while the current song is one restored from the last visit and not yet given to the deck:
 * the deck (and its module) is only loaded when the user presses play, at the saved position.
 */
let restoredNotLoaded = false

/** Loads `song` from the start and plays it (or leaves it paused). A fresh play bumps playId. */
function startSong(song: Song, autoplay: boolean, startAt = 0) {
  restoredNotLoaded = false
  usePlayerStore.setState((s) => ({
    currentSong: song,
    position: startAt,
    duration: songSeconds(song),
    isPlaying: autoplay,
    resumeOffered: false,
    playId: autoplay ? s.playId + 1 : s.playId,
    error: null,
  }))
  command({ kind: 'load', song, autoplay, ...(startAt > 0 ? { startAt } : {}) })
}

/** The song's known length until the deck reports the decoded file's own (the 'time' events). */
function songSeconds(song: Song): number {
  return song.seconds !== undefined && song.seconds > 0 ? song.seconds : parseDuration(song.duration)
}

function parseDuration(text: string): number {
  const m = /^(\d+):(\d{2})$/.exec(text ?? '')
  return m ? Number(m[1]) * 60 + Number(m[2]) : 0
}

type PressListener = (song: Song) => void
const pressListeners = new Set<PressListener>()

/**
 * Calls `listener` with the song each time the listener presses play (play, a song, a queue item),
 * never when the queue moves on by itself. The economy's reward flash listens here, so playback
 * does not import the slice above it. Returns the unsubscribe.
 */
export function onPlayPressed(listener: PressListener): () => void {
  pressListeners.add(listener)
  return () => pressListeners.delete(listener)
}

function flashReward(song: Song) {
  for (const listener of pressListeners) listener(song)
}

/** The state a page starts with: the last visit's queue and song, paused where they were. */
function restoredState(): Pick<
  PlayerState,
  'currentSong' | 'queue' | 'position' | 'duration' | 'volume' | 'crossfadeSeconds' | 'resumeOffered'
> {
  const saved = readSavedPlayer()
  const currentSong = saved?.queue.find((s) => s.id === saved.currentId) ?? null
  restoredNotLoaded = currentSong !== null
  const duration = currentSong ? songSeconds(currentSong) : 0
  return {
    queue: saved?.queue ?? [],
    currentSong,
    position: currentSong && saved ? (duration > 0 ? Math.min(saved.position, duration) : saved.position) : 0,
    duration,
    volume: saved && Number.isFinite(saved.volume) ? saved.volume : DEFAULT_VOLUME,
    crossfadeSeconds: saved?.crossfade ?? DEFAULT_CROSSFADE_S,
    resumeOffered: currentSong !== null && saved?.playing === true,
  }
}

export const usePlayerStore = create<PlayerState>()((set, get) => ({
  ...restoredState(),
  isPlaying: false,
  playId: 0,
  error: null,
  dismissResume: () => set({ resumeOffered: false }),

  playSong: (song) => {
    const { queue } = get()
    if (!isQueued(queue, song.id)) set({ queue: [...queue, song] })
    flashReward(song)
    startSong(song, true)
  },

  playSongAt: (song, seconds) => {
    if (get().currentSong?.id === song.id) {
      get().seek(seconds)
      if (!get().isPlaying) get().play()
      return
    }
    const { queue } = get()
    if (!isQueued(queue, song.id)) set({ queue: [...queue, song] })
    flashReward(song)
    startSong(song, true, Number.isFinite(seconds) && seconds > 0 ? seconds : 0)
  },

  addToQueue: (song) => {
    const { queue, currentSong } = get()
    if (isQueued(queue, song.id)) {
      notify(ALREADY_IN_QUEUE, { id: ALREADY_IN_QUEUE })
      return false
    }
    set({ queue: [...queue, song] })
    if (queue.length === 0 || !currentSong) {
      flashReward(song)
      startSong(song, true)
    } else notify.success(`Added "${song.title}" to the queue`)
    return true
  },

  removeFromQueue: (id) => {
    const { queue, currentSong, isPlaying } = get()
    const r = removeFromQueue(queue, currentSong?.id, id)
    set({ queue: r.queue })
    if (!r.currentChanged) return
    if (r.current) startSong(r.current, isPlaying)
    else stopAll()
  },

  clearQueue: () => {
    set({ queue: [] })
    stopAll()
  },

  playQueueIndex: (index) => {
    const song = get().queue[index]
    if (!song) return
    flashReward(song)
    startSong(song, true)
  },

  play: () => {
    const { currentSong, queue } = get()
    const song = currentSong ?? queue[0] ?? null
    if (!song) return
    flashReward(song)
    if (!currentSong) return startSong(song, true)
    if (restoredNotLoaded) {
      restoredNotLoaded = false
      set((s) => ({ isPlaying: true, playId: s.playId + 1, error: null, resumeOffered: false }))
      command({ kind: 'load', song, autoplay: true, startAt: get().position })
      return
    }
    set({ isPlaying: true, resumeOffered: false })
    command({ kind: 'play' })
  },

  pause: () => {
    set({ isPlaying: false })
    command({ kind: 'pause' })
  },

  togglePlay: () => (get().isPlaying ? get().pause() : get().play()),

  next: () => {
    const { queue, currentSong } = get()
    const i = nextIndex(queue.length, indexOfSong(queue, currentSong?.id))
    if (i < 0) return
    // A finished song (isPlaying still true) and the Next button both continue playing.
    startSong(queue[i]!, keepPlaying())
  },

  previous: () => {
    const { queue, currentSong, position, isPlaying } = get()
    const action = previousAction(queue.length, indexOfSong(queue, currentSong?.id), position)
    if (action.kind === 'restart') {
      set((s) => ({ position: 0, playId: isPlaying ? s.playId + 1 : s.playId }))
      if (!restoredNotLoaded) command({ kind: 'seek', seconds: 0 })
    } else if (action.kind === 'go') startSong(queue[action.index]!, keepPlaying())
  },

  seek: (seconds) => {
    if (!Number.isFinite(seconds) || !get().currentSong) return
    const { duration } = get()
    const clamped = Math.max(0, duration > 0 ? Math.min(seconds, duration) : seconds)
    set({ position: clamped })
    // A restored song not yet loaded keeps the position; play() starts the deck there.
    if (!restoredNotLoaded) command({ kind: 'seek', seconds: clamped })
  },

  setVolume: (volume) => {
    const v = Math.round(Math.min(100, Math.max(0, Number.isFinite(volume) ? volume : DEFAULT_VOLUME)))
    set({ volume: v })
    command({ kind: 'volume', volume: v })
  },

  setCrossfade: (seconds) => {
    // Half-second steps: what the setting's slider offers.
    const s = Math.round(clampCrossfade(seconds) * 2) / 2
    set({ crossfadeSeconds: s })
    command({ kind: 'crossfade', seconds: s })
  },
}))

/** Skipping keeps playing; skipping away from a song that failed to play plays the next one. */
function keepPlaying(): boolean {
  const { isPlaying, currentSong, error } = usePlayerStore.getState()
  return isPlaying || currentSong === null || error !== null
}

function stopAll() {
  restoredNotLoaded = false
  usePlayerStore.setState({ currentSong: null, isPlaying: false, position: 0, duration: 0 })
  command({ kind: 'stop' })
}
