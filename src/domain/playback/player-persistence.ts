/**
 * The player survives a reload (as Audius does): the queue, the current song, where it was, the
 * volume and the crossfade setting are kept in localStorage, and whether it was playing: a song that was
 * playing resumes where the browser lets a page start sound by itself, and offers a click to resume where
 * it does not (player-resume.ts). Only what the browser can play again is
 * kept: a 'blob:' URL dies with the page, so such songs are left out rather than restored broken.
 */
import type { Song } from '../../lib/catalogue/song.ts'
import { clampCrossfade } from '../../engine/deck-timeline.ts'

export const PLAYER_STORAGE_KEY = 'cube.player.v1'
/** Writes wait this long so the 4-per-second position updates cost one write a second at most. */
export const SAVE_DELAY_MS = 1000
/** The queue a player restores is bounded so a corrupted or hostile entry cannot balloon startup. */
export const MAX_SAVED_QUEUE = 500

export interface SavedPlayer {
  queue: Song[]
  currentId: string | null
  position: number
  volume: number
  /** Seconds of crossfade between queue items, 0..12 (0, gapless, when not saved). */
  crossfade: number
  /** The song was playing when the page went away. */
  playing: boolean
}

const isText = (v: unknown, max = 2000): v is string => typeof v === 'string' && v.length > 0 && v.length <= max
const sameOriginPath = (v: string) => v.startsWith('/') && !v.startsWith('//')
const playableAgain = (url: string) => sameOriginPath(url) || /^idb:[\w.-]+$/.test(url)

/** A stored song as the player can use it, or null (wrong shape, or audio that did not survive the reload). */
export function sanitizeSong(raw: unknown): Song | null {
  if (!raw || typeof raw !== 'object') return null
  const r = raw as Record<string, unknown>
  if (!isText(r.id, 200) || !isText(r.title, 500) || !isText(r.artist, 500) || !isText(r.audioUrl) || !playableAgain(r.audioUrl))
    return null
  const song: Song = {
    id: r.id,
    title: r.title,
    artist: r.artist,
    duration: typeof r.duration === 'string' && /^\d+:\d{2}$/.test(r.duration) ? r.duration : '0:00',
    image: isText(r.image) && sameOriginPath(r.image) ? r.image : '/images/covers/ai-generated.svg',
    audioUrl: r.audioUrl,
  }
  if (isText(r.genre, 100)) song.genre = r.genre
  if (isText(r.mood, 100)) song.mood = r.mood
  if (typeof r.reward === 'number' && Number.isFinite(r.reward) && r.reward >= 0) song.reward = r.reward
  // The same ranges public.songs checks: a hand-edited value cannot make the player boost wildly.
  if (typeof r.loudnessLufs === 'number' && r.loudnessLufs >= -70 && r.loudnessLufs <= 3) song.loudnessLufs = r.loudnessLufs
  if (typeof r.truePeakDbtp === 'number' && r.truePeakDbtp >= -100 && r.truePeakDbtp <= 12) song.truePeakDbtp = r.truePeakDbtp
  if (typeof r.seconds === 'number' && Number.isFinite(r.seconds) && r.seconds > 0) song.seconds = r.seconds
  return song
}

/** Parses what was stored; anything unusable is dropped (and logged by the caller), never thrown. */
export function parseSavedPlayer(text: string | null): SavedPlayer | null {
  if (!text) return null
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return null
  }
  if (!raw || typeof raw !== 'object') return null
  const r = raw as Record<string, unknown>
  const seen = new Set<string>()
  const queue: Song[] = []
  for (const item of Array.isArray(r.queue) ? r.queue.slice(0, MAX_SAVED_QUEUE) : []) {
    const song = sanitizeSong(item)
    if (song && !seen.has(song.id)) {
      seen.add(song.id)
      queue.push(song)
    }
  }
  const currentId = typeof r.currentId === 'string' && seen.has(r.currentId) ? r.currentId : null
  const position = currentId && typeof r.position === 'number' && Number.isFinite(r.position) && r.position > 0 ? r.position : 0
  const volume = typeof r.volume === 'number' && Number.isFinite(r.volume) ? Math.round(Math.min(100, Math.max(0, r.volume))) : NaN
  return { queue, currentId, position, volume, crossfade: clampCrossfade(r.crossfade), playing: currentId !== null && r.playing === true }
}

export const serializePlayer = (s: {
  queue: Song[]
  currentSong: Song | null
  position: number
  volume: number
  crossfadeSeconds: number
  isPlaying?: boolean
}): string =>
  JSON.stringify({
    queue: s.queue,
    currentId: s.currentSong?.id ?? null,
    position: Math.round(s.position * 10) / 10,
    volume: s.volume,
    crossfade: s.crossfadeSeconds,
    playing: s.isPlaying === true,
  })

/** localStorage when this runtime has a usable one (Node tests and locked-down browsers may not). */
export function playerStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

export function readSavedPlayer(storage = playerStorage()): SavedPlayer | null {
  if (!storage) return null
  let text: string | null = null
  try {
    text = storage.getItem(PLAYER_STORAGE_KEY)
  } catch {
    return null
  }
  const saved = parseSavedPlayer(text)
  if (text && !saved) console.warn('[player] ignored an unreadable saved player state')
  return saved
}
