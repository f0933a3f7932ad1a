import { noteName } from '../../../lib/computer-keyboard-notes.ts'
import { enableMidi, selectMidi, startRecording, stopRecording, useInstrumentPlayer } from './instrument-player.ts'

/** Playing the instrument: the computer keyboard's octave and velocity, the MIDI keyboard, Record notes. */
export function PianoRollPlayBar() {
  const { octave, velocity, midi, record, sound } = useInstrumentPlayer()
  const button = 'rounded border border-line px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50'
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-muted">
      {record.phase === 'idle' ? (
        <button
          type="button"
          className={`${button} hover:border-secondary`}
          onClick={() => void startRecording()}
          disabled={sound === 'failed'}
        >
          <span className="mr-1.5 inline-block h-2 w-2 rounded-full bg-secondary" />
          Record notes
        </button>
      ) : (
        <button type="button" className={`${button} border-secondary bg-secondary/20 text-secondary`} onClick={() => void stopRecording()}>
          Stop recording
        </button>
      )}
      {record.phase === 'count-in' && (
        <span role="status" className="font-mono text-secondary" data-testid="notes-count-in">
          Count-in {record.beat ?? ''}
        </span>
      )}
      {record.phase === 'recording' && (
        <span role="status" className="text-secondary" data-testid="notes-recording">
          Recording notes…
        </span>
      )}
      <span data-testid="computer-keyboard-help">
        Click the roll, then play: A–L ({noteName((octave + 1) * 12)} up), Z/X octave, C/V velocity ({velocity})
      </span>
      {sound === 'loading' && <span role="status">Loading the instrument…</span>}
      {midi.status === 'off' && (
        <button type="button" className={button} onClick={() => void enableMidi()}>
          Connect MIDI keyboard
        </button>
      )}
      {midi.status === 'opening' && <span role="status">Opening MIDI…</span>}
      {midi.status === 'unavailable' && (
        <>
          <span role="alert" className="text-secondary" data-testid="midi-unavailable">
            {midi.message}
          </span>
          <button type="button" className={button} onClick={() => void enableMidi()}>
            Try MIDI again
          </button>
        </>
      )}
      {midi.status === 'on' && (
        <label className="flex items-center gap-1.5">
          MIDI input
          <select
            aria-label="MIDI input"
            value={midi.selection ?? 'none'}
            onChange={(e) => selectMidi(e.currentTarget.value === 'none' ? null : e.currentTarget.value)}
            className="rounded border border-line bg-bg px-2 py-1 text-sm text-fg"
          >
            <option value="all">All MIDI inputs</option>
            {midi.devices.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
            <option value="none">None</option>
          </select>
          <span data-testid="midi-device-count">
            {midi.devices.length === 0 ? 'No MIDI keyboard connected' : `${midi.devices.length} connected`}
          </span>
        </label>
      )}
    </div>
  )
}
