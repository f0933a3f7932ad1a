import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { clipEnd, isLooped, regionLength, trackClips } from '../../../engine/arrangement/clip.ts'
import { duplicateClip, removeClip, setClipFades, setClipGain, splitClip } from '../../../engine/arrangement/clip-edits.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { MixerSlider } from '../mixer/MixerSlider.tsx'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { newClipId, useTimelineStore } from './timeline-store.ts'

/** Short read-outs: the slider rows leave a narrow column for them; the labels carry the units. */
const gainLabel = (g: number) => (g <= 0 ? '-∞' : (20 * Math.log10(g)).toFixed(1))

/** The selected clip: where it is, split at the playhead, duplicate, delete, clip gain and fades. */
export function ClipInspector() {
  const selected = useTimelineStore((s) => s.selected)
  const track = useMixerStore((s) => (selected ? s.tracks.find((t) => t.id === selected.trackId) : undefined))
  const clip = track && selected ? trackClips(track).find((c) => c.id === selected.clipId) : undefined
  if (!track || !clip)
    return (
      <p className="mt-2 text-xs text-muted">
        Select a clip to split, duplicate, delete or set its gain and fades. Drag its top-right corner to loop it.
      </p>
    )
  type Change = Parameters<ReturnType<typeof useMixerStore.getState>['editClips']>[1]
  const edit = (label: string, fn: Change, gesture?: string, burst?: string) =>
    useMixerStore.getState().editClips(track.id, fn, { label, gesture, burst })
  const maxFadeMs = Math.round(clip.length * 1000)
  const button = 'flex items-center gap-1 rounded border border-line px-2 py-1 text-xs hover:border-primary'
  return (
    <div className="mt-3 space-y-2 rounded border border-line p-3" role="group" aria-label="Selected clip" data-testid="clip-inspector">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="min-w-0 truncate font-semibold text-fg" title={track.name}>
          {track.name}
        </span>
        <span className="font-mono text-muted" data-testid="clip-position">
          {clip.start.toFixed(2)}–{clipEnd(clip).toFixed(2)} s
          {isLooped(clip)
            ? ` · loop ${regionLength(clip).toFixed(2)} s × ${((clip.phase + clip.length) / regionLength(clip)).toFixed(2)}`
            : ''}
        </span>
        <span className="ml-auto flex flex-wrap gap-1">
          <button
            type="button"
            className={button}
            onClick={() => edit('Split clip', (clips, d) => splitClip(clips, clip.id, mixerEngine.position(), d, newClipId()))}
          >
            Split at playhead
          </button>
          <button
            type="button"
            className={button}
            onClick={() => {
              const id = newClipId()
              edit('Duplicate clip', (clips, d) => duplicateClip(clips, clip.id, d, id))
              useTimelineStore.getState().select({ trackId: track.id, clipId: id })
            }}
          >
            <Icon name="plus" size={12} /> Duplicate
          </button>
          <button
            type="button"
            className={`${button} hover:border-secondary`}
            onClick={() => {
              edit('Delete clip', (clips) => removeClip(clips, clip.id))
              useTimelineStore.getState().select(null)
            }}
          >
            <Icon name="trash" size={12} /> Delete clip
          </button>
        </span>
      </div>
      <MixerSlider
        label="Gain (dB)"
        ariaLabel="Clip gain"
        value={Math.round(clip.gain * 100)}
        min={0}
        max={200}
        format={(v) => gainLabel(v / 100)}
        onChange={(v, gesture) =>
          edit('Clip gain change', (clips, d) => setClipGain(clips, clip.id, v / 100, d), gesture, `gain:${clip.id}`)
        }
        testId="clip-gain"
      />
      <MixerSlider
        label="Fade in (s)"
        ariaLabel="Fade in"
        value={Math.round(clip.fadeIn * 1000)}
        min={0}
        max={maxFadeMs}
        format={(v) => (v / 1000).toFixed(1)}
        onChange={(v, gesture) =>
          edit('Clip fade in', (clips, d) => setClipFades(clips, clip.id, { fadeIn: v / 1000 }, d), gesture, `fadeIn:${clip.id}`)
        }
        testId="clip-fade-in"
      />
      <MixerSlider
        label="Fade out (s)"
        ariaLabel="Fade out"
        value={Math.round(clip.fadeOut * 1000)}
        min={0}
        max={maxFadeMs}
        format={(v) => (v / 1000).toFixed(1)}
        onChange={(v, gesture) =>
          edit('Clip fade out', (clips, d) => setClipFades(clips, clip.id, { fadeOut: v / 1000 }, d), gesture, `fadeOut:${clip.id}`)
        }
        testId="clip-fade-out"
      />
    </div>
  )
}
