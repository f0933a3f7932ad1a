/**
 * Notes played by hand while the mix plays, turned into a track's notes: each key's press and
 * release at their timeline second, in beats at the project tempo. The sustain pedal holds
 * released keys until it lifts (so the recorded notes last as long as they were heard), and a key
 * still down when recording stops ends there.
 */
import { normaliseNote, type Note } from './note-track.ts'

export class NoteRecorder {
  private readonly down = new Map<number, { start: number; velocity: number }>()
  private readonly held = new Map<number, { start: number; velocity: number }>()
  private sustained = false
  private readonly notes: Note[] = []

  /** `toBeats`: a timeline second to the track's own beats (its clip's placement and the tempo). */
  constructor(
    private readonly toBeats: (seconds: number) => number,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  noteOn(key: number, velocity: number, seconds: number): void {
    // The same key again before its release (a repeated MIDI note, or held by the pedal) ends the first.
    this.end(key, seconds)
    this.held.delete(key)
    this.down.set(key, { start: seconds, velocity })
  }

  noteOff(key: number, seconds: number): void {
    const note = this.down.get(key)
    if (!note) return
    this.down.delete(key)
    if (this.sustained) this.held.set(key, note)
    else this.push(key, note, seconds)
  }

  sustain(down: boolean, seconds: number): void {
    this.sustained = down
    if (down) return
    for (const [key, note] of this.held) this.push(key, note, seconds)
    this.held.clear()
  }

  /** Every note played, keys still down (or held) ending at `seconds`. */
  finish(seconds: number): Note[] {
    for (const [key, note] of [...this.down, ...this.held]) this.push(key, note, seconds)
    this.down.clear()
    this.held.clear()
    return this.notes.slice().sort((a, b) => a.start - b.start || a.key - b.key)
  }

  private end(key: number, seconds: number): void {
    const note = this.down.get(key) ?? this.held.get(key)
    if (note) this.push(key, note, seconds)
    this.down.delete(key)
  }

  private push(key: number, note: { start: number; velocity: number }, seconds: number): void {
    const start = this.toBeats(note.start)
    const end = this.toBeats(Math.max(seconds, note.start))
    // Played before the track begins (during a count-in, left of a moved clip): not part of it.
    if (end <= 0) return
    this.notes.push(
      normaliseNote({ id: this.newId(), key, velocity: note.velocity, start: Math.max(0, start), length: end - Math.max(0, start) }),
    )
  }
}
