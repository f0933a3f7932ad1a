import { MAX_BPM, MIN_BPM, SNAP_GRIDS, type SnapGrid } from '../../../engine/arrangement/clip-edits.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useTimelineStore } from './timeline-store.ts'

const SNAP_LABELS: Record<SnapGrid, string> = { off: 'Off', bar: 'Bar', beat: 'Beat', '1/8': '1/8', '1/16': '1/16' }

/** Tempo, snap grid, zoom and follow-playhead for the arrangement. */
export function TimelineToolbar() {
  const tempo = useMixerStore((s) => s.tempo)
  const { snap, follow, zoom, loop, metronome, countIn } = useTimelineStore()
  // Typed freely, committed on Enter or leaving the field; the store clamps to 40–240 and the field
  // (keyed by the tempo) then shows what it kept, or the old tempo back for unusable text.
  const commitTempo = (input: HTMLInputElement) => {
    const bpm = Number(input.value)
    if (input.value.trim() !== '' && Number.isFinite(bpm)) useMixerStore.getState().setTempo(bpm)
    input.value = String(useMixerStore.getState().tempo)
  }
  const field = 'rounded border border-line bg-bg px-2 py-1 text-sm text-fg'
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <h2 id="arrangement-heading" className="font-display text-sm font-bold uppercase tracking-widest text-primary">
        Arrangement
      </h2>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        Tempo
        <input
          type="number"
          inputMode="decimal"
          min={MIN_BPM}
          max={MAX_BPM}
          step={1}
          key={tempo}
          defaultValue={tempo}
          onBlur={(e) => commitTempo(e.currentTarget)}
          onKeyDown={(e) => e.key === 'Enter' && commitTempo(e.currentTarget)}
          className={`${field} w-20`}
          aria-label="Project tempo (BPM)"
        />
        BPM
      </label>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        Snap
        <select
          value={snap}
          onChange={(e) => useTimelineStore.getState().setSnap(e.target.value as SnapGrid)}
          className={field}
          aria-label="Snap grid"
        >
          {SNAP_GRIDS.map((g) => (
            <option key={g} value={g}>
              {SNAP_LABELS[g]}
            </option>
          ))}
        </select>
      </label>
      <div className="flex items-center gap-1 text-xs text-muted" role="group" aria-label="Zoom">
        <button
          type="button"
          onClick={() => useTimelineStore.getState().zoomOut()}
          className="rounded border border-line px-2 py-1 hover:border-primary"
          aria-label="Zoom out"
        >
          −
        </button>
        <span className="w-16 text-center font-mono" data-testid="timeline-zoom">
          {Math.round(zoom)} px/s
        </span>
        <button
          type="button"
          onClick={() => useTimelineStore.getState().zoomIn()}
          className="rounded border border-line px-2 py-1 hover:border-primary"
          aria-label="Zoom in"
        >
          +
        </button>
      </div>
      <div className="flex items-center gap-1.5 text-xs text-muted" role="group" aria-label="Loop region">
        <label className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={loop.enabled}
            onChange={(e) => useTimelineStore.getState().setLoop({ enabled: e.target.checked })}
          />
          Loop bars
        </label>
        <input
          type="number"
          min={1}
          key={`from-${loop.fromBar}`}
          defaultValue={loop.fromBar}
          onBlur={(e) => useTimelineStore.getState().setLoop({ fromBar: Number(e.currentTarget.value) })}
          onKeyDown={(e) => e.key === 'Enter' && useTimelineStore.getState().setLoop({ fromBar: Number(e.currentTarget.value) })}
          className={`${field} w-16`}
          aria-label="Loop from bar"
        />
        to
        <input
          type="number"
          min={2}
          key={`to-${loop.toBar}`}
          defaultValue={loop.toBar}
          onBlur={(e) => useTimelineStore.getState().setLoop({ toBar: Number(e.currentTarget.value) })}
          onKeyDown={(e) => e.key === 'Enter' && useTimelineStore.getState().setLoop({ toBar: Number(e.currentTarget.value) })}
          className={`${field} w-16`}
          aria-label="Loop to bar"
        />
      </div>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        <input type="checkbox" checked={metronome} onChange={(e) => useTimelineStore.getState().setMetronome(e.target.checked)} />
        Metronome
      </label>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        <input type="checkbox" checked={countIn} onChange={(e) => useTimelineStore.getState().setCountIn(e.target.checked)} />
        Count-in before recording
      </label>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        <input type="checkbox" checked={follow} onChange={(e) => useTimelineStore.getState().setFollow(e.target.checked)} />
        Follow playhead
      </label>
    </div>
  )
}
