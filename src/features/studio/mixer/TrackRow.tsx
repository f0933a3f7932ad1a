import { memo } from 'react'
import { CONTROL_LABELS, CONTROL_RANGES, panLabel, type MixerTrack, type TrackControl } from '../../../engine/mixer-model.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { Switch } from '../../../ui/Switch.tsx'
import { LevelMeter } from './LevelMeter.tsx'
import { MixerSlider } from './MixerSlider.tsx'
import { Waveform } from './Waveform.tsx'

const TYPE_STYLE: Record<MixerTrack['type'], string> = {
  main: 'border-primary text-primary',
  effect: 'border-secondary text-secondary',
  recording: 'border-accent text-accent',
  instrument: 'border-primary text-fg',
}

export const TrackRow = memo(function TrackRow({
  track,
  selected,
  timeline,
  onSeek,
}: {
  track: MixerTrack
  selected: boolean
  timeline: number
  onSeek: (s: number) => void
}) {
  const setControl = useMixerStore((s) => s.setControl)
  const setEnabled = useMixerStore((s) => s.setEnabled)
  const select = useMixerStore((s) => s.select)
  const removeTrack = useMixerStore((s) => s.removeTrack)
  const control = (c: TrackControl, value: number, format?: (v: number) => string) => (
    <MixerSlider
      label={CONTROL_LABELS[c]}
      ariaLabel={`${track.name} ${CONTROL_LABELS[c]}`}
      value={value}
      {...CONTROL_RANGES[c]}
      disabled={!track.enabled}
      format={format}
      onChange={(v, gesture) => setControl(track.id, c, v, gesture)}
      control={{ trackId: track.id, control: c }}
    />
  )
  return (
    <li
      aria-label={track.name}
      data-testid="mixer-track"
      data-track-name={track.name}
      className={`panel p-3 transition ${selected ? 'neon-box border-primary' : ''} ${track.enabled ? '' : 'opacity-75'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={() => select(track.id)}
          className="min-w-0 flex-1 truncate text-left font-semibold text-fg hover:text-primary"
          aria-pressed={selected}
          aria-label={`Select ${track.name} for effects`}
          title={track.name}
        >
          {track.name}
        </button>
        <span
          className={`rounded border px-1.5 py-0.5 text-[10px] uppercase tracking-wider ${TYPE_STYLE[track.type]}`}
          data-testid="track-type"
        >
          {track.type}
        </span>
        <span className="font-mono text-xs text-muted">{formatTime(track.duration)}</span>
        <Switch checked={track.enabled} label={`${track.name} enabled`} onChange={(on) => setEnabled(track.id, on)} />
        <button
          type="button"
          onClick={() => removeTrack(track.id)}
          aria-label={`Remove ${track.name}`}
          className="rounded p-1 text-muted hover:text-secondary"
        >
          <Icon name="trash" size={16} />
        </button>
      </div>
      <div className="mt-2">
        <Waveform
          audioId={track.audioId}
          offset={track.offset}
          duration={track.duration}
          timeline={timeline}
          muted={!track.enabled}
          label={track.name}
          onSeek={onSeek}
        />
      </div>
      <div className="mt-1">
        <LevelMeter levelKey={track.id} label={`${track.name} level`} />
      </div>
      {/* Columns only as wide as a slider stays usable (label, ≥ 3 rem of track, read-out): fewer
          per row on narrow screens instead of read-outs running into the next label. */}
      <div className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(min(13rem,100%),1fr))] gap-x-4 gap-y-1">
        {control('volume', track.volume)}
        {control('pan', track.pan, panLabel)}
        {control('reverb', track.reverb)}
      </div>
    </li>
  )
})

export function formatTime(seconds: number): string {
  // A hair of tolerance: a 4 s file decoded at another rate may come back as 3.99999 s.
  const s = Math.max(0, seconds) + 1e-3
  const m = Math.floor(s / 60)
  const r = Math.floor(s % 60)
  return `${m}:${String(r).padStart(2, '0')}`
}
