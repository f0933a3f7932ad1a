/**
 * CUBE Radio's programme: a pure function of the UTC day and the wall clock, so every listener of
 * the station hears the same piece at the same position (joining mid-piece).
 *
 * The day is cut into slots of SLOT_SECONDS from 00:00 UTC; slot n plays piece n of the day, whose
 * recipe (description, mood, genre) comes from a per-day seed; the composer is deterministic, so the
 * recipe is the piece. Piece n sounds from the start of its slot until CROSSFADE_SECONDS into the
 * next one: the two overlap with equal-power gains (sin/cos), so there is never a gap.
 * A steer (a mood or genre) picks another channel with its own programme, shared by everyone on it.
 */
import { GENRES, MOODS, type Genre, type Mood } from '../composer.ts'

export const SLOT_SECONDS = 60
export const CROSSFADE_SECONDS = 6
/** What each piece must last: its slot plus the fade into the next. */
export const PIECE_SECONDS = SLOT_SECONDS + CROSSFADE_SECONDS
const DAY_MS = 86_400_000

export interface Steer {
  mood?: Mood
  genre?: Genre
}

export interface StationRecipe {
  description: string
  mood: Mood
  genre: Genre
}

export interface ProgrammeSlot {
  day: string
  index: number
  /** Wall-clock ms when the slot starts (the piece fades in from here). */
  startsAt: number
  recipe: StationRecipe
}

/** FNV-1a: a stable 32-bit hash of text (same on every device). */
export function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

const ADJECTIVES = ['Neon', 'Midnight', 'Chrome', 'Static', 'Velvet', 'Orbital', 'Glass', 'Electric', 'Hollow', 'Solar', 'Quiet', 'Binary']
const NOUNS = ['Skyline', 'Transit', 'Signal', 'Harbour', 'Circuit', 'Garden', 'Relay', 'Archive', 'Drift', 'Horizon', 'Bloom', 'Pulse']

export function slotAt(wallMs: number, steer: Steer = {}, offset = 0): ProgrammeSlot {
  const slotMs = SLOT_SECONDS * 1000
  const dayStart = Math.floor(wallMs / DAY_MS) * DAY_MS
  const absolute = Math.floor((wallMs - dayStart) / slotMs) + offset
  const startsAt = dayStart + absolute * slotMs
  const day = new Date(Math.floor(startsAt / DAY_MS) * DAY_MS).toISOString().slice(0, 10)
  const index = Math.round((startsAt - Math.floor(startsAt / DAY_MS) * DAY_MS) / slotMs)
  const channel = `${steer.mood ?? '*'}/${steer.genre ?? '*'}`
  const h = hash32(`cube-radio|${day}|${channel}|${index}`)
  const mood = steer.mood ?? MOODS[h % MOODS.length]!
  const genre = steer.genre ?? GENRES[(h >>> 8) % GENRES.length]!
  const title = `${ADJECTIVES[(h >>> 16) % ADJECTIVES.length]} ${NOUNS[(h >>> 20) % NOUNS.length]}`
  return { day, index, startsAt, recipe: { description: `CUBE Radio ${day} #${index}: ${title}`, mood, genre } }
}

/** Where the station is now: the current slot and how far into its piece (seconds). */
export function nowPlaying(wallMs: number, steer: Steer = {}): { slot: ProgrammeSlot; position: number } {
  const slot = slotAt(wallMs, steer)
  return { slot, position: (wallMs - slot.startsAt) / 1000 }
}

/** Equal-power crossfade gains at a fraction 0 … 1 through the overlap. */
export const fadeIn = (fraction: number): number => Math.sin((Math.min(1, Math.max(0, fraction)) * Math.PI) / 2)
export const fadeOut = (fraction: number): number => Math.cos((Math.min(1, Math.max(0, fraction)) * Math.PI) / 2)

/** The gain curve of one piece over its PIECE_SECONDS, for AudioParam.setValueCurveAtTime and the offline mix. */
export function pieceGain(t: number): number {
  if (t < 0 || t > PIECE_SECONDS) return 0
  if (t < CROSSFADE_SECONDS) return fadeIn(t / CROSSFADE_SECONDS)
  if (t > SLOT_SECONDS) return fadeOut((t - SLOT_SECONDS) / CROSSFADE_SECONDS)
  return 1
}

/**
 * The station's output over consecutive pieces (mono, the same gains the live graph applies):
 * piece k starts at k × SLOT_SECONDS. Used to measure the rendered output in tests.
 */
export function mixProgramme(pieces: readonly Float32Array[], sampleRate: number): Float32Array {
  const slot = Math.round(SLOT_SECONDS * sampleRate)
  const out = new Float32Array(slot * (pieces.length - 1) + Math.round(PIECE_SECONDS * sampleRate))
  pieces.forEach((piece, k) => {
    const start = k * slot
    for (let i = 0; i < piece.length && start + i < out.length; i++) out[start + i]! += piece[i]! * pieceGain(i / sampleRate)
  })
  return out
}

/** The longest run of near-silence (RMS over 10 ms windows below threshold), in ms, between from and to seconds. */
export function longestSilenceMs(signal: Float32Array, sampleRate: number, from: number, to: number, threshold = 0.001): number {
  const win = Math.round(sampleRate / 100)
  let run = 0
  let longest = 0
  for (let i = Math.round(from * sampleRate); i + win <= Math.min(signal.length, Math.round(to * sampleRate)); i += win) {
    let sum = 0
    for (let j = i; j < i + win; j++) sum += signal[j]! * signal[j]!
    if (Math.sqrt(sum / win) < threshold) longest = Math.max(longest, (run += 10))
    else run = 0
  }
  return longest
}

/**
 * A piece's recipe id, the generator's share-link format ('v1.' + base64url of the UTF-8 JSON
 * [description, mood, genre]): /track/{id} recreates the piece, and the server recognises station
 * pieces by it (listen_station_start).
 */
export function recipeId(recipe: StationRecipe): string {
  const bytes = new TextEncoder().encode(JSON.stringify([recipe.description, recipe.mood, recipe.genre]))
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return 'v1.' + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
