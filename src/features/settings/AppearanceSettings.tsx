import { THEME_PRESETS, THEME_PRESET_NAMES, type ThemePresetName } from '../../config/theme-presets.ts'
import { useThemeStore } from '../../domain/appearance/theme-store.ts'
import { SettingsSection, Toggle } from './settings-ui.tsx'

// The reference's theme names map onto our presets: Cyberpunk = cyber, Midnight = midnight,
// Ocean = emerald (its cyan-and-sea-green palette); the two presets it does not name keep theirs.
export const THEME_LABELS: Record<ThemePresetName, string> = {
  cyber: 'Cyberpunk',
  midnight: 'Midnight',
  emerald: 'Ocean',
  synthwave: 'Synthwave',
  sunset: 'Sunset',
}

export function AppearanceSettings() {
  const { preset, glow, animation, setPreset, setGlow, setAnimation } = useThemeStore()
  return (
    <SettingsSection title="Appearance" description="Saved on this device.">
      <fieldset className="space-y-2">
        <legend className="text-sm text-fg/90">Theme</legend>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          {THEME_PRESET_NAMES.map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={preset === name}
              onClick={() => setPreset(name)}
              className={
                `flex items-center justify-between rounded-md border px-3 py-2 text-sm ` +
                `${preset === name ? 'border-primary bg-primary/10 text-fg' : 'border-line text-fg/80 hover:border-primary/60'}`
              }
            >
              <span>{THEME_LABELS[name]}</span>
              <span className="flex gap-0.5" aria-hidden>
                {(['primary', 'secondary', 'accent'] as const).map((k) => (
                  <span key={k} className="h-3 w-3 rounded-full" style={{ background: THEME_PRESETS[name][k] }} />
                ))}
              </span>
            </button>
          ))}
        </div>
      </fieldset>
      <Toggle label="Glow effects" hint="Neon glow on headings, panels and buttons." checked={glow} onChange={setGlow} />
      <Toggle
        label="Animations"
        hint="Motion and transitions (your system's reduce-motion setting always wins)."
        checked={animation !== 'minimal'}
        onChange={(on) => setAnimation(on ? 'standard' : 'minimal')}
      />
    </SettingsSection>
  )
}
