import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import {
  HIGHEST_KEY,
  LOWEST_KEY,
  MIN_NOTE_BEATS,
  addNote,
  gridBeats,
  instrumentSpan,
  moveNotes,
  quantiseNotes,
  removeNotes,
  resizeNote,
  setVelocity,
  type Instrument,
  type Note,
} from '../../../engine/instruments/note-track.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { noteName } from '../../../lib/computer-keyboard-notes.ts'
import { useTimelineStore } from '../timeline/timeline-store.ts'
import { InstrumentSelect, instrumentValue, parseInstrumentValue } from './InstrumentSelect.tsx'
import { PianoRollPlayBar } from './PianoRollPlayBar.tsx'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { MAX_PRESENCE_NOTES } from '../../../domain/studio/presence.ts'
import { PeerTag } from '../presence/PeerTag.tsx'
import { usePeerNotes, usePeersOnTrack } from '../presence/peer-hooks.ts'
import {
  computerKeyDown,
  computerKeyUp,
  noteOff,
  noteOn,
  playTrack,
  refreshInstrument,
  releaseComputerKeys,
  stopPlaying,
  useInstrumentPlayer,
} from './instrument-player.ts'

/** Pixels per key row and per beat. */
export const ROW_PX = 14
export const BEAT_PX = 32
const KEYBOARD_PX = 44
/** Pointer within this many pixels of a note's right end resizes it. */
const EDGE_PX = 6
/** The top row when the roll opens (G5): the octaves around middle C in view. */
const FIRST_VISIBLE_KEY = 79
const KEYS = Array.from({ length: HIGHEST_KEY - LOWEST_KEY + 1 }, (_, i) => HIGHEST_KEY - i)
const isBlack = (key: number) => [1, 3, 6, 8, 10].includes(((key % 12) + 12) % 12)

type Drag =
  | { kind: 'draw'; note: Note; originBeat: number }
  | { kind: 'move'; ids: Set<string>; beat0: number; key0: number; moved: boolean; preview: Note[] | null }
  | { kind: 'resize'; id: string; preview: Note[] | null }

const positionLabel = (n: Note) => {
  const bar = Math.floor(n.start / 4) + 1
  const beat = Math.round(((n.start % 4) + 1) * 100) / 100
  const length = `${Math.round(n.length * 100) / 100} beat${n.length === 1 ? '' : 's'}`
  return `${noteName(n.key)} at bar ${bar} beat ${beat}, ${length}, velocity ${n.velocity}`
}

/**
 * The piano roll of the selected instrument track: click an empty cell to draw a note (drag to
 * lengthen it), drag a note to move it, its right end to resize it, double-click to delete;
 * everything snaps to the timeline's grid. With the roll focused: Delete removes the selected
 * notes, arrows move them (Shift+↑/↓ an octave), Ctrl/⌘+A selects all, and the computer keyboard
 * plays the instrument (A–L, Z/X octave, C/V velocity). Each finished gesture is one undo step.
 */
export function PianoRoll() {
  const track = useMixerStore((s) => s.tracks.find((t) => t.id === s.selectedId && t.instrument))
  if (!track?.instrument) return null
  return <PianoRollEditor key={track.id} trackId={track.id} name={track.name} instrument={track.instrument} />
}

function PianoRollEditor({ trackId, name, instrument }: { trackId: string; name: string; instrument: Instrument }) {
  const snap = useTimelineStore((s) => s.snap)
  const down = useInstrumentPlayer((s) => s.down)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [drag, setDrag] = useState<Drag | null>(null)
  const dragRef = useRef<Drag | null>(null)
  const gridRef = useRef<HTMLDivElement>(null)
  const scrollRef = useRef<HTMLDivElement>(null)
  const step = gridBeats(snap)
  const notes = instrument.notes
  const shown = drag?.kind === 'draw' ? [...notes, drag.note] : (drag?.preview ?? notes)
  const beats = Math.max(instrumentSpan(notes) + 8, 16)
  const selectedNotes = useMemo(() => notes.filter((n) => selected.has(n.id)), [notes, selected])
  const session = useLiveSessionStore((s) => s.session)
  const here = usePeersOnTrack(trackId)
  const peerNotes = usePeerNotes(trackId)

  // In a live session the others see which notes this creator has selected (the first few).
  useEffect(() => {
    if (!session) return
    session.share({ notes: [...selected].slice(0, MAX_PRESENCE_NOTES) })
  }, [session, selected])
  useEffect(() => (session ? () => session.share({ notes: [] }) : undefined), [session])

  useEffect(() => {
    void playTrack(trackId)
    return () => stopPlaying()
  }, [trackId])
  useEffect(() => {
    void refreshInstrument()
  }, [instrument.program, instrument.drums])
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = (HIGHEST_KEY - FIRST_VISIBLE_KEY) * ROW_PX
  }, [])

  const edit = (change: (inst: Instrument) => Instrument, label: string, burst?: string) =>
    useMixerStore.getState().editInstrument(trackId, change, { label, burst })
  const editNotes = (change: (n: Note[]) => Note[], label: string, burst?: string) =>
    edit((inst) => ({ ...inst, notes: change(inst.notes) }), label, burst)

  const at = (e: { clientX: number; clientY: number }) => {
    const rect = gridRef.current!.getBoundingClientRect()
    const beat = Math.max(0, (e.clientX - rect.left) / BEAT_PX)
    const key = Math.min(HIGHEST_KEY, Math.max(LOWEST_KEY, HIGHEST_KEY - Math.floor((e.clientY - rect.top) / ROW_PX)))
    return { beat, key }
  }
  const floorToGrid = (b: number) => (step > 0 ? Math.floor(b / step + 1e-9) * step : b)
  const roundToGrid = (b: number) => (step > 0 ? Math.round(b / step) * step : b)
  const begin = (d: Drag) => {
    dragRef.current = d
    setDrag(d)
  }
  const update = (d: Drag) => {
    dragRef.current = d
    setDrag(d)
  }

  const onGridPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return
    // Focus for the keys, without scrolling the roll under the pointer.
    gridRef.current?.focus({ preventScroll: true })
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-note-id]')
    const { beat, key } = at(e)
    e.currentTarget.setPointerCapture?.(e.pointerId)
    if (target) {
      const id = target.dataset.noteId!
      const note = notes.find((n) => n.id === id)
      if (!note) return
      const rect = target.getBoundingClientRect()
      if (rect.right - e.clientX <= EDGE_PX) {
        setSelected(new Set([id]))
        begin({ kind: 'resize', id, preview: null })
        return
      }
      const ids = e.shiftKey ? new Set(selected).add(id) : selected.has(id) ? new Set(selected) : new Set([id])
      setSelected(ids)
      noteOn(note.key, note.velocity)
      begin({ kind: 'move', ids, beat0: beat, key0: key, moved: false, preview: null })
      return
    }
    setSelected(new Set())
    const start = floorToGrid(beat)
    const note: Note = {
      id: crypto.randomUUID(),
      key,
      start,
      length: step > 0 ? step : 1,
      velocity: useInstrumentPlayer.getState().velocity,
    }
    noteOn(key, note.velocity)
    begin({ kind: 'draw', note, originBeat: start })
  }

  const onGridPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = dragRef.current
    if (!d) return
    const { beat, key } = at(e)
    if (d.kind === 'draw') {
      const end = step > 0 ? Math.ceil(beat / step - 1e-9) * step : beat
      update({ ...d, note: { ...d.note, length: Math.max(step > 0 ? step : MIN_NOTE_BEATS, end - d.originBeat) } })
    } else if (d.kind === 'move') {
      const db = roundToGrid(beat - d.beat0)
      const dk = key - d.key0
      if (db === 0 && dk === 0 && !d.moved) return
      update({ ...d, moved: true, preview: moveNotes(notes, d.ids, db, dk) })
    } else {
      const note = notes.find((n) => n.id === d.id)
      if (!note) return
      const end = step > 0 ? Math.round(beat / step) * step : beat
      update({ ...d, preview: resizeNote(notes, d.id, Math.max(step > 0 ? step : MIN_NOTE_BEATS, end - note.start)) })
    }
  }

  const onGridPointerUp = () => {
    const d = dragRef.current
    dragRef.current = null
    setDrag(null)
    if (!d) return
    if (d.kind === 'draw') {
      noteOff(d.note.key)
      editNotes((n) => addNote(n, d.note), 'Draw note')
      setSelected(new Set([d.note.id]))
    } else if (d.kind === 'move') {
      for (const n of notes) if (d.ids.has(n.id)) noteOff(n.key)
      if (d.preview) editNotes(() => d.preview!, d.ids.size === 1 ? 'Move note' : 'Move notes')
    } else if (d.preview) editNotes(() => d.preview!, 'Resize note')
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || e.altKey) return
    const mod = e.ctrlKey || e.metaKey
    if (mod && e.key.toLowerCase() === 'a') {
      e.preventDefault()
      setSelected(new Set(notes.map((n) => n.id)))
      return
    }
    if (mod) return
    if ((e.key === 'Delete' || e.key === 'Backspace') && selected.size > 0) {
      e.preventDefault()
      editNotes((n) => removeNotes(n, selected), selected.size === 1 ? 'Delete note' : 'Delete notes')
      setSelected(new Set())
      return
    }
    if (e.key === 'Escape') return setSelected(new Set())
    const arrows: Record<string, [number, number]> = {
      ArrowLeft: [-(step || 0.25), 0],
      ArrowRight: [step || 0.25, 0],
      ArrowUp: [0, e.shiftKey ? 12 : 1],
      ArrowDown: [0, e.shiftKey ? -12 : -1],
    }
    const move = arrows[e.key]
    if (move && selected.size > 0) {
      e.preventDefault()
      editNotes((n) => moveNotes(n, selected, move[0], move[1]), 'Move notes', 'arrows')
      return
    }
    if (e.repeat) {
      if (computerKeyAction(e.code)) e.preventDefault()
      return
    }
    if (e.shiftKey) return
    if (computerKeyDown(e.code)) e.preventDefault()
  }

  const velocity = selectedNotes[0]?.velocity ?? useInstrumentPlayer.getState().velocity
  const button = 'rounded border border-line px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50'

  return (
    <section className="panel p-4" aria-labelledby="piano-roll-heading" data-testid="piano-roll">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="piano-roll-heading" className="mr-2 font-display text-sm font-bold uppercase tracking-widest text-primary">
          Piano Roll · <span className="normal-case text-fg">{name}</span>
        </h2>
        <InstrumentSelect
          label={`${name} instrument`}
          value={instrumentValue(instrument.program, instrument.drums)}
          onChange={(v) => edit((inst) => ({ ...inst, ...parseInstrumentValue(v) }), 'Change instrument')}
        />
        <label className="flex items-center gap-1.5 text-xs text-muted">
          Velocity
          <input
            type="range"
            min={1}
            max={127}
            value={velocity}
            disabled={selected.size === 0}
            aria-label="Velocity of the selected notes"
            onChange={(e) => editNotes((n) => setVelocity(n, selected, Number(e.currentTarget.value)), 'Note velocity', 'velocity')}
            className="w-24 accent-[var(--color-primary)]"
          />
          <span className="w-8 font-mono" data-testid="piano-roll-velocity">
            {selected.size ? velocity : '–'}
          </span>
        </label>
        <button
          type="button"
          className={button}
          disabled={step === 0 || notes.length === 0}
          title={step === 0 ? 'Choose a snap grid to quantise to' : 'Quantise the selected notes (or all) to the snap grid'}
          onClick={() => editNotes((n) => quantiseNotes(n, selected.size ? selected : null, snap), 'Quantise')}
        >
          Quantise
        </button>
        <button
          type="button"
          className={button}
          disabled={selected.size === 0}
          onClick={() => {
            editNotes((n) => removeNotes(n, selected), selected.size === 1 ? 'Delete note' : 'Delete notes')
            setSelected(new Set())
          }}
        >
          Delete notes
        </button>
        <span className="text-xs text-muted" data-testid="piano-roll-count">
          {notes.length} note{notes.length === 1 ? '' : 's'}
        </span>
        {here.length > 0 && (
          <span className="flex items-center gap-1 text-xs text-muted" aria-label={`Also in ${name}`}>
            Also here:
            {here.map((p) => (
              <PeerTag key={p.clientId} peer={p} testId="peer-in-roll" />
            ))}
          </span>
        )}
      </div>
      <div ref={scrollRef} className="mt-3 max-h-80 overflow-auto rounded border border-line" data-testid="piano-roll-scroll">
        <div className="relative flex" style={{ width: KEYBOARD_PX + beats * BEAT_PX, height: KEYS.length * ROW_PX }}>
          <div className="sticky left-0 z-10 shrink-0 bg-bg" style={{ width: KEYBOARD_PX }} role="group" aria-label="Keyboard">
            {KEYS.map((k) => (
              <button
                key={k}
                type="button"
                tabIndex={-1}
                aria-label={`Play ${noteName(k)}`}
                onPointerDown={() => noteOn(k)}
                onPointerUp={() => noteOff(k)}
                onPointerLeave={(e) => e.buttons && noteOff(k)}
                className={`block w-full border-b border-line/40 pr-1 text-right text-[9px] leading-none ${
                  down.includes(k) ? 'bg-primary text-bg' : isBlack(k) ? 'bg-fg/70 text-bg' : 'bg-fg/10 text-muted'
                }`}
                style={{ height: ROW_PX }}
              >
                {k % 12 === 0 ? noteName(k) : ''}
              </button>
            ))}
          </div>
          <div
            ref={gridRef}
            role="listbox"
            aria-label={`${name} notes`}
            aria-roledescription="piano roll"
            aria-multiselectable
            tabIndex={0}
            data-testid="piano-roll-grid"
            onPointerDown={onGridPointerDown}
            onPointerMove={onGridPointerMove}
            onPointerUp={onGridPointerUp}
            onPointerCancel={onGridPointerUp}
            onDoubleClick={(e) => {
              const id = (e.target as HTMLElement).closest<HTMLElement>('[data-note-id]')?.dataset.noteId
              if (!id) return
              editNotes((n) => removeNotes(n, new Set([id])), 'Delete note')
              setSelected(new Set())
            }}
            onKeyDown={onKeyDown}
            onKeyUp={(e) => computerKeyUp(e.code) && e.preventDefault()}
            onBlur={releaseComputerKeys}
            className="relative flex-1 cursor-crosshair touch-none outline-none focus-visible:ring-2 focus-visible:ring-primary"
            style={{
              backgroundImage:
                `repeating-linear-gradient(90deg, var(--color-line) 0 1px, transparent 1px ${BEAT_PX}px),` +
                `repeating-linear-gradient(90deg, var(--color-primary) 0 1px, transparent 1px ${BEAT_PX * 4}px)`,
            }}
          >
            {KEYS.map((k, i) =>
              isBlack(k) ? (
                <div key={k} className="pointer-events-none absolute inset-x-0 bg-fg/5" style={{ top: i * ROW_PX, height: ROW_PX }} />
              ) : null,
            )}
            {shown.map((n) => (
              <div
                key={n.id}
                role="option"
                aria-selected={selected.has(n.id)}
                aria-label={peerNotes.has(n.id) ? `${positionLabel(n)}, selected by ${peerNotes.get(n.id)!.name}` : positionLabel(n)}
                data-note-id={n.id}
                data-peer={peerNotes.get(n.id)?.name}
                data-testid="piano-roll-note"
                className={`absolute cursor-move rounded-sm border ${
                  selected.has(n.id) ? 'border-fg bg-secondary' : 'border-primary bg-primary'
                } after:absolute after:inset-y-0 after:right-0 after:w-1.5 after:cursor-ew-resize`}
                style={{
                  left: n.start * BEAT_PX,
                  width: Math.max(3, n.length * BEAT_PX),
                  top: (HIGHEST_KEY - n.key) * ROW_PX + 1,
                  height: ROW_PX - 2,
                  opacity: 0.45 + (0.55 * n.velocity) / 127,
                  ...(peerNotes.has(n.id) && { outline: `2px solid ${peerNotes.get(n.id)!.colour}`, outlineOffset: 1 }),
                }}
              />
            ))}
          </div>
        </div>
      </div>
      {/* Below the grid, not above it: a click aimed at the grid's top row must never start recording. */}
      <PianoRollPlayBar />
    </section>
  )
}

/** A held computer key repeating: swallowed, so the page does not scroll or type while a note sounds. */
const computerKeyAction = (code: string) => /^Key[A-Z]$/.test(code)
