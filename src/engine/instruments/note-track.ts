/**
 * An instrument track's notes, pure (no Web Audio): the piano roll edits them, the instrument
 * renderer plays them through the SoundFont synthesizer, `.mid` import and export read and write
 * them. Times are in beats (quarter notes) from the track's start, so a tempo change moves every
 * note with the grid, as in every DAW.
 *
 *   Note          { id, key (MIDI 0–127), start, length (beats), velocity (1–127) }
 *   Instrument    { program (GM 0–127, or a kit on channel 10 when drums), drums, notes }
 *   addNote / addNotes / moveNotes / resizeNote / removeNotes / setVelocity / quantiseNotes   pure edits
 *   instrumentSpan(notes)     whole bars the notes cover (at least one)
 *   instrumentEvents(…)       the synthesizer's events at a sample rate and tempo
 *   instrumentAudioId(…)      a key naming the render of exactly these notes at this tempo
 */
import {
  DRUM_CHANNEL,
  SYNTH_CONTROLLER,
  SYNTH_NOTE_OFF,
  SYNTH_NOTE_ON,
  SYNTH_PROGRAM,
  type SynthEvent,
} from '../../../audio-worklets/soundfont-sequence.ts'
import type { SnapGrid } from '../arrangement/clip-edits.ts'

export interface Note {
  id: string
  key: number
  start: number
  length: number
  velocity: number
}

export interface Instrument {
  program: number
  drums: boolean
  notes: Note[]
}

export const BEATS_PER_BAR = 4
/** The shortest note an edit leaves: a 1/64 note. */
export const MIN_NOTE_BEATS = 1 / 16
/** A note longer than 16 bars is a stuck key, not music. */
export const MAX_NOTE_BEATS = 64
/** 999 bars, the timeline's limit. */
export const MAX_NOTE_START = 999 * BEATS_PER_BAR
/** Enough for any hand-played or imported piece; bounds the render and the stored project. */
export const MAX_NOTES = 20000
export const DEFAULT_VELOCITY = 100
/** Seconds the render runs past the last bar, so releases and the strip's tails are not cut off. */
export const INSTRUMENT_TAIL_SECONDS = 2
/**
 * The synthesizer plays a single note about 20 dB below full scale (its GM headroom for sixteen
 * channels at once); an instrument track is one channel, so it is lifted by 12 dB, in the render and
 * live alike, to sit beside recorded audio. Fixed, not normalised: adding a note never changes the
 * level of the others.
 */
export const INSTRUMENT_TRACK_GAIN = 4
/** The piano roll's range: MIDI 21 (A0) … 108 (C8), the piano's 88 keys. */
export const LOWEST_KEY = 21
export const HIGHEST_KEY = 108

const finite = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))

/** A note made valid (every edit, import and load ends here); never throws. */
export function normaliseNote(raw: Partial<Note> & { id: string }): Note {
  return {
    id: raw.id,
    key: Math.round(clamp(finite(raw.key, 60), 0, 127)),
    start: clamp(finite(raw.start, 0), 0, MAX_NOTE_START),
    length: clamp(finite(raw.length, 1), MIN_NOTE_BEATS, MAX_NOTE_BEATS),
    velocity: Math.round(clamp(finite(raw.velocity, DEFAULT_VELOCITY), 1, 127)),
  }
}

/** A stored instrument (older versions, hand edits) repaired; undefined when there is none. */
export function sanitizeInstrument(raw: unknown): Instrument | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const r = raw as Partial<Instrument>
  const notes = Array.isArray(r.notes)
    ? r.notes
        .filter((n): n is Note => !!n && typeof (n as Note).id === 'string')
        .slice(0, MAX_NOTES)
        .map(normaliseNote)
    : []
  return { program: Math.round(clamp(finite(r.program, 0), 0, 127)), drums: r.drums === true, notes: sortNotes(notes) }
}

const sortNotes = (notes: Note[]): Note[] => notes.sort((a, b) => a.start - b.start || a.key - b.key)

/** Beats between grid lines (0 for 'off'), the timeline's snap grid in 4/4. */
export function gridBeats(grid: SnapGrid): number {
  return grid === 'bar' ? BEATS_PER_BAR : grid === 'beat' ? 1 : grid === '1/8' ? 0.5 : grid === '1/16' ? 0.25 : 0
}

export function snapBeats(beats: number, grid: SnapGrid): number {
  const step = gridBeats(grid)
  return step > 0 ? Math.round(beats / step) * step : beats
}

export function addNote(notes: readonly Note[], note: Partial<Note> & { id: string }): Note[] {
  if (notes.length >= MAX_NOTES) return [...notes]
  return sortNotes([...notes, normaliseNote(note)])
}

/** Notes added together (a recorded take, an import), in time order, within MAX_NOTES. */
export function addNotes(notes: readonly Note[], more: readonly (Partial<Note> & { id: string })[]): Note[] {
  return sortNotes([...notes, ...more.slice(0, Math.max(0, MAX_NOTES - notes.length)).map(normaliseNote)])
}

/** Moves the notes by whole beats and semitones together (a chord keeps its shape at the range's edges). */
export function moveNotes(notes: readonly Note[], ids: ReadonlySet<string>, beats: number, keys: number): Note[] {
  const moving = notes.filter((n) => ids.has(n.id))
  if (moving.length === 0) return [...notes]
  const earliest = Math.min(...moving.map((n) => n.start))
  const low = Math.min(...moving.map((n) => n.key))
  const high = Math.max(...moving.map((n) => n.key))
  const db = Math.max(-earliest, finite(beats, 0))
  const dk = clamp(Math.round(finite(keys, 0)), -low, 127 - high)
  if (db === 0 && dk === 0) return [...notes]
  return sortNotes(notes.map((n) => (ids.has(n.id) ? normaliseNote({ ...n, start: n.start + db, key: n.key + dk }) : n)))
}

export function resizeNote(notes: readonly Note[], id: string, length: number): Note[] {
  return notes.map((n) => (n.id === id ? normaliseNote({ ...n, length }) : n))
}

export function removeNotes(notes: readonly Note[], ids: ReadonlySet<string>): Note[] {
  return notes.filter((n) => !ids.has(n.id))
}

export function setVelocity(notes: readonly Note[], ids: ReadonlySet<string>, velocity: number): Note[] {
  return notes.map((n) => (ids.has(n.id) ? normaliseNote({ ...n, velocity }) : n))
}

/**
 * Starts and ends to the grid (the notes in `ids`, or all when null); a note never shrinks below one
 * grid step, so quantising never deletes a note.
 */
export function quantiseNotes(notes: readonly Note[], ids: ReadonlySet<string> | null, grid: SnapGrid): Note[] {
  const step = gridBeats(grid)
  if (step <= 0) return [...notes]
  return sortNotes(
    notes.map((n) => {
      if (ids && !ids.has(n.id)) return n
      const start = snapBeats(n.start, grid)
      const end = Math.max(start + step, snapBeats(n.start + n.length, grid))
      return start === n.start && end - start === n.length ? n : normaliseNote({ ...n, start, length: end - start })
    }),
  )
}

/** Beats up to the end of the last note. */
export const notesEnd = (notes: readonly Note[]): number => notes.reduce((end, n) => Math.max(end, n.start + n.length), 0)

/** Whole bars the notes cover, in beats (at least one bar): the track's region on the timeline. */
export function instrumentSpan(notes: readonly Note[]): number {
  return Math.max(1, Math.ceil(notesEnd(notes) / BEATS_PER_BAR - 1e-9)) * BEATS_PER_BAR
}

/** Seconds of the track's render: its bars at the tempo plus the tail for releases. */
export function instrumentDuration(notes: readonly Note[], bpm: number): number {
  return (instrumentSpan(notes) * 60) / bpm + INSTRUMENT_TAIL_SECONDS
}

/** The channel the track plays on: drums on channel 10, everything else on 1. */
export const instrumentChannel = (inst: Pick<Instrument, 'drums'>): number => (inst.drums ? DRUM_CHANNEL : 0)

/**
 * The synthesizer's events for the notes at `bpm`: program first, then by frame with note-offs
 * before note-ons on the same frame (a repeated key ends before it sounds again). Full volume, centre,
 * no reverb or chorus send: the track's channel strip does the mixing.
 */
export function instrumentEvents(inst: Instrument, bpm: number, sampleRate: number): SynthEvent[] {
  const channel = instrumentChannel(inst)
  const frameOf = (beats: number) => Math.round(((beats * 60) / bpm) * sampleRate)
  const head: SynthEvent[] = [
    { frame: 0, kind: SYNTH_PROGRAM, channel, a: inst.program, b: 0 },
    { frame: 0, kind: SYNTH_CONTROLLER, channel, a: 7, b: 127 },
    { frame: 0, kind: SYNTH_CONTROLLER, channel, a: 10, b: 64 },
    { frame: 0, kind: SYNTH_CONTROLLER, channel, a: 91, b: 0 },
    { frame: 0, kind: SYNTH_CONTROLLER, channel, a: 93, b: 0 },
  ]
  const timed: { e: SynthEvent; order: number }[] = []
  for (const n of inst.notes) {
    const on = frameOf(n.start)
    const off = Math.max(on + 1, frameOf(n.start + n.length))
    timed.push({ e: { frame: on, kind: SYNTH_NOTE_ON, channel, a: n.key, b: n.velocity }, order: 1 })
    timed.push({ e: { frame: off, kind: SYNTH_NOTE_OFF, channel, a: n.key, b: 0 }, order: 0 })
  }
  timed.sort((x, y) => x.e.frame - y.e.frame || x.order - y.order)
  return [...head, ...timed.map((t) => t.e)]
}

/** Bump when the render itself changes (events, synthesizer settings), so stored renders are redone. */
const RENDER_VERSION = 1

/**
 * Names the render of these notes at this tempo: same notes (ids aside), program and tempo → same
 * id, so undo finds its earlier render again and a saved project stores each render once.
 */
export function instrumentAudioId(inst: Instrument, bpm: number): string {
  const body = [RENDER_VERSION, inst.program, inst.drums ? 1 : 0, bpm, ...inst.notes.flatMap((n) => [n.key, n.start, n.length, n.velocity])]
  // FNV-1a over the text, twice with different seeds: 64 bits, enough to never collide in one project.
  const text = body.join(',')
  let a = 0x811c9dc5
  let b = 0x01000193 ^ text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return `inst-${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}-${inst.notes.length}`
}
