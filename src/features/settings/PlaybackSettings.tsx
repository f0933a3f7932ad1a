import { useId } from 'react'
import { NORMALISATION_SETTINGS, type NormalisationSetting } from '../../domain/playback/loudness-normalisation.ts'
import { useNormalisationStore } from '../../domain/playback/normalisation-store.ts'
import { inputClass, SettingsSection } from './settings-ui.tsx'

/** Loudness normalisation: every song at one loudness, chosen here and kept on this device. */
export function PlaybackSettings() {
  const { setting, setSetting } = useNormalisationStore()
  const id = useId()
  return (
    <SettingsSection title="Playback" description="Saved on this device.">
      <div className="space-y-1">
        <label htmlFor={id} className="block text-sm text-fg">
          Loudness normalisation
        </label>
        <select id={id} className={inputClass} value={setting} onChange={(e) => setSetting(e.target.value as NormalisationSetting)}>
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
    </SettingsSection>
  )
}
