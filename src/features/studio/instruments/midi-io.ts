/**
 * `.mid` files in and out of the studio. Import: every MIDI channel with notes becomes an
 * instrument track with its GM instrument (one undo step); an empty studio takes the file's tempo,
 * a mix already in progress keeps its own and the notes keep their times in seconds. Export: every
 * audible instrument track's notes as the timeline plays them (clips moved, trimmed, looped).
 */
import { arrangedNotes } from '../../../engine/instruments/arranged-notes.ts'
import { readMidiFile, writeMidiFile } from '../../../engine/instruments/midi-file.ts'
import { MAX_NOTES, normaliseNote } from '../../../engine/instruments/note-track.ts'
import { downloadFile } from '../../../lib/download-file.ts'
import { mixerSnapshot, useMixerStore } from '../../../domain/studio/mixer-store.ts'

export interface MidiImportResult {
  tracks: number
  notes: number
}

export async function importMidiFile(file: File): Promise<MidiImportResult> {
  const contents = await readMidiFile(await file.arrayBuffer(), file.name)
  const store = useMixerStore.getState()
  const tempo = store.tracks.length === 0 ? contents.bpm : undefined
  const bpm = tempo ?? store.tempo
  let count = 0
  const inputs = contents.parts.map((part) => {
    const notes = part.notes.slice(0, MAX_NOTES).map((n) =>
      normaliseNote({
        id: crypto.randomUUID(),
        key: n.key,
        velocity: n.velocity,
        start: (n.seconds * bpm) / 60,
        length: (n.lengthSeconds * bpm) / 60,
      }),
    )
    count += notes.length
    return { name: part.name, program: part.program, drums: part.drums, notes }
  })
  const added = store.addInstrumentTracks(inputs, tempo)
  return { tracks: added.length, notes: count }
}

/** True when the mix has an instrument track to export. */
export const hasInstrumentTracks = (tracks: readonly { instrument?: unknown }[]): boolean => tracks.some((t) => t.instrument)

export async function exportProjectMidi(): Promise<void> {
  const state = mixerSnapshot()
  const bpm = state.tempo ?? useMixerStore.getState().tempo
  const tracks = state.tracks
    .filter((t) => t.instrument && t.enabled)
    .map((t) => ({ name: t.name, program: t.instrument!.program, drums: t.instrument!.drums, notes: arrangedNotes(t, bpm) }))
  if (tracks.length === 0) throw new Error('There are no playing instrument tracks to export as MIDI.')
  // An empty file would download without a word: say why there is nothing to export instead.
  if (tracks.every((t) => t.notes.length === 0))
    throw new Error('There are no notes to export yet: draw some in the piano roll, record them, or import a MIDI file.')
  const name = useMixerStore.getState().project?.name ?? 'CUBE project'
  const bytes = await writeMidiFile(tracks, bpm, name)
  const fileName = `${name.replace(/[^\w\- ]+/g, '').trim() || 'cube-project'}.mid`
  downloadFile(new Blob([bytes], { type: 'audio/midi' }), fileName)
}
