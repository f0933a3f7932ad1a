import { useRef, useState } from 'react'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { notify } from '../../../lib/notify.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { InstrumentSelect, instrumentValue, parseInstrumentValue } from './InstrumentSelect.tsx'
import { exportProjectMidi, hasInstrumentTracks, importMidiFile } from './midi-io.ts'

/** Add Instrument Track (with its GM instrument), Import MIDI and Export MIDI. */
export function InstrumentTrackTools() {
  const [choice, setChoice] = useState(instrumentValue(0, false))
  const [busy, setBusy] = useState(false)
  const canExport = useMixerStore((s) => hasInstrumentTracks(s.tracks))
  const fileInput = useRef<HTMLInputElement>(null)

  const add = () => useMixerStore.getState().addInstrumentTrack(parseInstrumentValue(choice))

  const importFile = async (file: File) => {
    setBusy(true)
    try {
      const { tracks, notes } = await importMidiFile(file)
      notify.success('MIDI imported', { description: `${tracks} instrument track${tracks === 1 ? '' : 's'}, ${notes} notes` })
    } catch (err) {
      notify.error('MIDI not imported', { description: errorMessage(err) })
    } finally {
      setBusy(false)
    }
  }

  const exportFile = async () => {
    try {
      await exportProjectMidi()
      notify.success('MIDI exported')
    } catch (err) {
      notify.error('MIDI not exported', { description: errorMessage(err) })
    }
  }

  const button = 'flex items-center gap-2 rounded border border-line px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50'
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Instrument tracks">
      <div className="flex items-center">
        <InstrumentSelect value={choice} onChange={setChoice} label="Instrument for a new track" className="max-w-[12rem] rounded-r-none" />
        <button type="button" onClick={add} className={`${button} rounded-l-none border-l-0`}>
          <Icon name="plus" size={16} /> Add Instrument Track
        </button>
      </div>
      <button type="button" onClick={() => fileInput.current?.click()} disabled={busy} className={button}>
        <Icon name="upload" size={16} /> Import MIDI
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".mid,.midi,.kar,.rmi,audio/midi,audio/x-midi"
        className="hidden"
        data-testid="midi-file-input"
        aria-label="MIDI file to import"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0]
          if (file) void importFile(file)
          e.currentTarget.value = ''
        }}
      />
      <button type="button" onClick={() => void exportFile()} disabled={!canExport} className={button}>
        <Icon name="download" size={16} /> Export MIDI
      </button>
    </div>
  )
}
