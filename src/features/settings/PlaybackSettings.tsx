import { useId } from 'react'
import { NORMALISATION_SETTINGS, type NormalisationSetting } from '../../domain/playback/loudness-normalisation.ts'
import { useNormalisationStore } from '../../domain/playback/normalisation-store.ts'
import { MAX_OUTPUT_DELAY_MS, OUTPUT_DELAY_STEP_MS, useOutputDelayStore } from '../../domain/playback/output-delay-store.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { MAX_CROSSFADE_S } from '../../engine/deck-timeline.ts'
import { inputClass, SettingsSection } from './settings-ui.tsx'

const describeCrossfade = (seconds: number) => (seconds === 0 ? 'Off (gapless)' : `${seconds} s`)
const describeDelay = (ms: number) => (ms === 0 ? 'None' : `${ms} ms`)

interface SliderRowProps {
  id: string
  label: string
  testId: string
  max: number
  step: number
  value: number
  describe: (value: number) => string
  onChange: (value: number) => void
}

/** A labelled range from 0 with its value read out beside the label and to assistive technology. */
function SliderRow({ id, label, testId, max, step, value, describe, onChange }: SliderRowProps) {
  return (
    <>
      <div className="flex items-baseline justify-between gap-4">
        <label htmlFor={id} className="text-sm text-fg">
          {label}
        </label>
        <output htmlFor={id} className="text-sm tabular-nums text-fg/90" data-testid={testId}>
          {describe(value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={0}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.currentTarget.value))}
        aria-valuetext={describe(value)}
        className="h-1 w-full cursor-pointer accent-[var(--theme-secondary)]"
      />
    </>
  )
}

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
        <SliderRow
          id={crossfadeId}
          label="Crossfade between songs"
          testId="crossfade-value"
          max={MAX_CROSSFADE_S}
          step={0.5}
          value={crossfade}
          describe={describeCrossfade}
          onChange={(v) => usePlayerStore.getState().setCrossfade(v)}
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
        <SliderRow
          id={delayId}
          label="Speaker delay"
          testId="output-delay-value"
          max={MAX_OUTPUT_DELAY_MS}
          step={OUTPUT_DELAY_STEP_MS}
          value={delayMs}
          describe={describeDelay}
          onChange={setDelayMs}
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
