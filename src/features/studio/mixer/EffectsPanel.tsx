import { CONTROL_LABELS, CONTROL_RANGES, EFFECT_NAMES } from '../../../engine/mixer-model.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { MixerSlider } from './MixerSlider.tsx'

/** The selected track's six effects (lowpass, highpass, distortion, delay, compression, chorus). */
export function EffectsPanel() {
  const track = useMixerStore((s) => s.tracks.find((t) => t.id === s.selectedId) ?? null)
  const setControl = useMixerStore((s) => s.setControl)
  if (!track) return <p className="text-sm text-muted">Select a track to shape it with effects.</p>
  return (
    <div className="space-y-2">
      <p className="flex min-w-0 text-sm">
        <span className="shrink-0 text-muted">Track:&nbsp;</span>
        <span className="min-w-0 truncate font-semibold text-primary" title={track.name}>
          {track.name}
        </span>
        {!track.enabled && <span className="ml-2 text-xs text-muted">(disabled)</span>}
      </p>
      {EFFECT_NAMES.map((e) => (
        <MixerSlider
          key={e}
          label={CONTROL_LABELS[e]}
          ariaLabel={`${track.name} ${CONTROL_LABELS[e]}`}
          value={track.effects[e]}
          {...CONTROL_RANGES[e]}
          disabled={!track.enabled}
          onChange={(v, gesture) => setControl(track.id, e, v, gesture)}
          control={{ trackId: track.id, control: e }}
        />
      ))}
    </div>
  )
}
