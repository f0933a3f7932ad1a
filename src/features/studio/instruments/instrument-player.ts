/**
 * Playing an instrument track by hand: the computer keyboard and MIDI keyboards (Web MIDI) play
 * the selected instrument track's instrument live, through its channel strip, and "Record notes"
 * writes what is played into the track while the mix plays (after a bar of count-in when the
 * timeline's count-in is on). The piano roll reads this store and calls its actions.
 */
import { create } from 'zustand'
import { getAudioContext, unlockAudio } from '../../../engine/audio-context.ts'
import { createLiveInstrument, type LiveInstrument } from '../../../engine/instruments/live-instrument.ts'
import { NoteRecorder } from '../../../engine/instruments/note-recorder.ts'
import { addNotes } from '../../../engine/instruments/note-track.ts'
import { trackClips } from '../../../engine/arrangement/clip.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { openMidiInputs, type MidiDevice, type MidiInputs, type MidiSelection } from '../../../engine/midi-input.ts'
import { DEFAULT_KEY_VELOCITY, DEFAULT_OCTAVE, keyboardAction, nextOctave, nextVelocity } from '../../../lib/computer-keyboard-notes.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { notify } from '../../../lib/notify.ts'
import { mixerSnapshot, useMixerStore } from '../../../domain/studio/mixer-store.ts'
import type { MixerTrack } from '../../../engine/mixer-model.ts'
import { startCountIn } from '../recording/count-in.ts'
import { useTimelineStore } from '../timeline/timeline-store.ts'
import { outputLatencySeconds } from '../../../engine/output-latency.ts'

export type MidiState =
  | { status: 'off' }
  | { status: 'opening' }
  | { status: 'on'; devices: MidiDevice[]; selection: MidiSelection }
  | { status: 'unavailable'; message: string }

export type RecordPhase = 'idle' | 'count-in' | 'recording'

interface InstrumentPlayerStore {
  /** The instrument track the keyboards play (the piano roll's track). */
  trackId: string | null
  sound: 'off' | 'loading' | 'ready' | 'failed'
  octave: number
  velocity: number
  /** Keys sounding now (shown on the roll's keyboard). */
  down: readonly number[]
  midi: MidiState
  record: { phase: RecordPhase; beat: number | null; trackId: string | null }
}

export const useInstrumentPlayer = create<InstrumentPlayerStore>()(() => ({
  trackId: null,
  sound: 'off',
  octave: DEFAULT_OCTAVE,
  velocity: DEFAULT_KEY_VELOCITY,
  down: [],
  midi: { status: 'off' },
  record: { phase: 'idle', beat: null, trackId: null },
}))

const set = useInstrumentPlayer.setState
const get = useInstrumentPlayer.getState

let live: Promise<LiveInstrument> | null = null
let midi: MidiInputs | null = null
let recorder: NoteRecorder | null = null
let stopOnEnd: (() => void) | null = null
/** Computer keys held now → the MIDI key each one started (the octave may change while held). */
const heldCodes = new Map<string, number>()

const trackOf = (id: string | null): MixerTrack | undefined =>
  id === null ? undefined : useMixerStore.getState().tracks.find((t) => t.id === id && t.instrument)

function liveInstrument(): Promise<LiveInstrument> {
  if (!live) {
    set({ sound: 'loading' })
    live = createLiveInstrument(getAudioContext())
    live.then(
      () => set({ sound: 'ready' }),
      (err: unknown) => {
        live = null
        set({ sound: 'failed' })
        notify.error('The instrument could not be loaded', { description: errorMessage(err) })
      },
    )
  }
  return live
}

/** Points the keyboards at a track: its instrument, heard through its channel strip. */
export async function playTrack(trackId: string | null): Promise<void> {
  const previous = get().trackId
  set({ trackId })
  if (previous !== trackId) releaseAll()
  const track = trackOf(trackId)
  if (!track?.instrument) return
  try {
    const instrument = await liveInstrument()
    if (get().trackId !== trackId) return
    instrument.setInstrument(track.instrument.program, track.instrument.drums)
    const input = await mixerEngine.trackInput(mixerSnapshot(), track.id)
    if (input && get().trackId === trackId) instrument.connect(input)
  } catch {
    // Reported by liveInstrument's own notice; the roll still edits notes without a live sound.
  }
}

/** The instrument changed (or the track's strip was rebuilt): play through it again. */
export const refreshInstrument = (): Promise<void> => playTrack(get().trackId)

function releaseAll(): void {
  heldCodes.clear()
  set({ down: [] })
  void live?.then((i) => i.allNotesOff()).catch(() => {})
}

/** Where the mix is, as the player heard it: the output's latency back from now. */
function heardPosition(): number | null {
  const ctx = getAudioContext()
  return mixerEngine.timelinePositionAt(ctx.currentTime - outputLatencySeconds(ctx))
}

export function noteOn(key: number, velocity = get().velocity): void {
  if (!trackOf(get().trackId)) return
  void unlockAudio()
  void liveInstrument()
    .then((i) => i.noteOn(key, velocity))
    .catch(() => {})
  set({ down: [...get().down.filter((k) => k !== key), key] })
  const at = heardPosition()
  if (recorder && at !== null) recorder.noteOn(key, velocity, at)
}

export function noteOff(key: number): void {
  void live?.then((i) => i.noteOff(key)).catch(() => {})
  set({ down: get().down.filter((k) => k !== key) })
  const at = heardPosition()
  if (recorder && at !== null) recorder.noteOff(key, at)
}

export function sustain(down: boolean): void {
  void live?.then((i) => i.sustain(down)).catch(() => {})
  const at = heardPosition()
  if (recorder && at !== null) recorder.sustain(down, at)
}

/** A computer key pressed (KeyboardEvent.code); true when the piano used it. */
export function computerKeyDown(code: string): boolean {
  const action = keyboardAction(code, get().octave)
  if (!action) return false
  if (action.type === 'octave') set({ octave: nextOctave(get().octave, action.change) })
  else if (action.type === 'velocity') set({ velocity: nextVelocity(get().velocity, action.change) })
  else if (!heldCodes.has(code)) {
    heldCodes.set(code, action.key)
    noteOn(action.key)
  }
  return true
}

export function computerKeyUp(code: string): boolean {
  const key = heldCodes.get(code)
  if (key === undefined) return keyboardAction(code, get().octave) !== null
  heldCodes.delete(code)
  noteOff(key)
  return true
}

/** Focus left the piano roll: computer keys held down would never see their release. */
export function releaseComputerKeys(): void {
  for (const code of [...heldCodes.keys()]) computerKeyUp(code)
}

export async function enableMidi(): Promise<void> {
  if (midi || get().midi.status === 'opening') return
  set({ midi: { status: 'opening' } })
  try {
    const inputs = await openMidiInputs()
    midi = inputs
    const show = () => set({ midi: { status: 'on', devices: inputs.devices(), selection: inputs.selection() } })
    inputs.onDevices(show)
    inputs.onEvent((e) => {
      if (e.type === 'noteOn') noteOn(e.key, e.velocity)
      else if (e.type === 'noteOff') noteOff(e.key)
      else sustain(e.down)
    })
    show()
  } catch (err) {
    set({ midi: { status: 'unavailable', message: errorMessage(err) } })
  }
}

/** Lets go of every MIDI keyboard (the next Connect asks the browser again). */
export function disconnectMidi(): void {
  midi?.close()
  midi = null
  releaseAll()
  set({ midi: { status: 'off' } })
}

export function selectMidi(selection: MidiSelection): void {
  if (!midi) return
  midi.select(selection)
  releaseAll()
  set({ midi: { status: 'on', devices: midi.devices(), selection } })
}

/** Timeline seconds → the track's own beats, through the clip that plays that second (or its first). */
function beatsOnTrack(track: MixerTrack, bpm: number): (seconds: number) => number {
  return (seconds) => {
    const clips = trackClips(track)
    const clip = clips.find((c) => seconds >= c.start && seconds < c.start + c.length) ?? clips[0]!
    const source = seconds - clip.start + clip.sourceStart + clip.phase
    return (source * bpm) / 60
  }
}

export async function startRecording(): Promise<void> {
  const trackId = get().trackId
  const track = trackOf(trackId)
  if (!track || get().record.phase !== 'idle') return
  const bpm = useMixerStore.getState().tempo
  try {
    await liveInstrument()
    let at: number | undefined
    if (useTimelineStore.getState().countIn) {
      set({ record: { phase: 'count-in', beat: null, trackId } })
      const count = await startCountIn(bpm, (beat) => set({ record: { phase: 'count-in', beat, trackId } }))
      await count.done
      at = count.barEnd
    }
    // Stopped during the count-in: nothing to record.
    if (at !== undefined && get().record.phase !== 'count-in') return
    recorder = new NoteRecorder(beatsOnTrack(track, bpm))
    if (!mixerEngine.isPlaying()) await mixerEngine.play(mixerSnapshot(), at)
    set({ record: { phase: 'recording', beat: null, trackId } })
    stopOnEnd = mixerEngine.onEnded(() => void stopRecording())
  } catch (err) {
    recorder = null
    set({ record: { phase: 'idle', beat: null, trackId: null } })
    notify.error('Recording could not start', { description: errorMessage(err) })
  }
}

/** Ends the take: what was played becomes the track's notes (one undo step); the mix pauses. */
export async function stopRecording(): Promise<void> {
  const { trackId } = get().record
  const take = recorder
  recorder = null
  stopOnEnd?.()
  stopOnEnd = null
  const end = heardPosition() ?? mixerEngine.position()
  mixerEngine.pause()
  set({ record: { phase: 'idle', beat: null, trackId: null } })
  releaseAll()
  const notes = take?.finish(end) ?? []
  if (!trackId || notes.length === 0) return
  useMixerStore.getState().editInstrument(trackId, (inst) => ({ ...inst, notes: addNotes(inst.notes, notes) }), { label: 'Record notes' })
  notify.success(`${notes.length} note${notes.length === 1 ? '' : 's'} recorded`)
}

/** Leaving the studio: nothing keeps sounding or listening. */
export function stopPlaying(): void {
  if (get().record.phase !== 'idle') void stopRecording()
  releaseAll()
  void live?.then((i) => i.disconnect()).catch(() => {})
  set({ trackId: null })
}
