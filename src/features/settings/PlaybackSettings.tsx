import { useId } from 'react'
import { NORMALISATION_SETTINGS, type NormalisationSetting } from '../../domain/playback/loudness-normalisation.ts'
import { useNormalisationStore } from '../../domain/playback/normalisation-store.ts'
import { MAX_OUTPUT_DELAY_MS, OUTPUT_DELAY_STEP_MS, useOutputDelayStore } from '../../domain/playback/output-delay-store.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { MAX_CROSSFADE_S } from '../../engine/deck-timeline.ts'
import { inputClass, SettingsSection } from './settings-ui.tsx'

const describeCrossfade = (seconds: number) => (seconds === 0 ? 'Off (gapless)' : `${seconds} s`)
const describeDelay = (ms: number) => (ms === 0 ? 'None' : `${ms} ms`)

/**
 * How the queue sounds, chosen here and kept on this device: how consecutive songs meet (gapless, or
 * an equal-power crossfade) and whether every song plays at one loudness.
 */
export function PlaybackSettings() {
  const crossfade = usePlayerStore((s) => s.crossfadeSeconds)
  const { setting, setSetting } = useNormalisationStore()
  const crossfadeId = useId()
  const normalisationId = useId()
  const { delayMs, setDelayMs } = useOutputDelayStore()
  const delayId = useId()
  return (
    <SettingsSection title="Playback" description="Saved on this device.">
      <div className="space-y-2">
        <div className="flex items-baseline justify-between gap-4">
          <label htmlFor={crossfadeId} className="text-sm text-fg">
            Crossfade between songs
          </label>
          <output htmlFor={crossfadeId} className="text-sm tabular-nums text-fg/90" data-testid="crossfade-value">
            {describeCrossfade(crossfade)}
          </output>
        </div>
        <input
          id={crossfadeId}
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
      <div className="space-y-1">
        <label htmlFor={normalisationId} className="block text-sm text-fg">
          Loudness normalisation
        </label>
        <select
          id={normalisationId}
          className={inputClass}
          value={setting}
          onChange={(e) => setSetting(e.target.value as NormalisationSetting)}
        >
          {NORMALISATION_SETTINGS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <p className="text-xs text-muted">
          Plays every song at the same loudness, measured once per song. A quiet song is raised only as far as it can go without clipping.
          Off plays each file as it is.
        </p>
      </div>
      <div className="space-y-2">
        <div className="flex items-baseline justify-between gap-4">
          <label htmlFor={delayId} className="text-sm text-fg">
            Speaker delay
          </label>
          <output htmlFor={delayId} className="text-sm tabular-nums text-fg/90" data-testid="output-delay-value">
            {describeDelay(delayMs)}
          </output>
        </div>
        <input
          id={delayId}
          type="range"
          min={0}
          max={MAX_OUTPUT_DELAY_MS}
          step={OUTPUT_DELAY_STEP_MS}
          value={delayMs}
          onChange={(e) => setDelayMs(Number(e.currentTarget.value))}
          aria-valuetext={describeDelay(delayMs)}
          className="h-1 w-full cursor-pointer accent-[var(--theme-secondary)]"
        />
        <p className="text-xs text-muted">
          How late your speakers or headphones play what the app sends them, for browsers that do not say (Safari): about 150–250 ms for
          Bluetooth headphones. Play together, CUBE Radio and recordings then line up with everyone else. Chrome, Edge and Firefox measure
          it themselves and ignore this.
        </p>
      </div>
    </SettingsSection>
  )
}
