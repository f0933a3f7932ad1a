import { useId } from 'react'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { MAX_CROSSFADE_S } from '../../engine/deck-timeline.ts'
import { SettingsSection } from './settings-ui.tsx'

const describeCrossfade = (seconds: number) => (seconds === 0 ? 'Off (gapless)' : `${seconds} s`)

/** How consecutive songs of the queue meet: gapless, or overlapping with an equal-power crossfade. */
export function PlaybackSettings() {
  const crossfade = usePlayerStore((s) => s.crossfadeSeconds)
  const id = useId()
  return (
    <SettingsSection title="Playback" description="Saved on this device.">
      <div className="space-y-2">
        <div className="flex items-baseline justify-between gap-4">
          <label htmlFor={id} className="text-sm text-fg">
            Crossfade between songs
          </label>
          <output htmlFor={id} className="text-sm tabular-nums text-fg/90" data-testid="crossfade-value">
            {describeCrossfade(crossfade)}
          </output>
        </div>
        <input
          id={id}
          type="range"
          min={0}
          max={MAX_CROSSFADE_S}
          step={0.5}
          value={crossfade}
          onChange={(e) => usePlayerStore.getState().setCrossfade(Number(e.currentTarget.value))}
          aria-valuetext={describeCrossfade(crossfade)}
          className="h-1 w-full cursor-pointer accent-[var(--theme-secondary)]"
        />
        <p className="text-xs text-muted">
          Off: each song starts on the very sample after the last one ends. On: the next song fades in over this many seconds while the
          current one fades out. CUBE Radio always crossfades.
        </p>
      </div>
    </SettingsSection>
  )
}
