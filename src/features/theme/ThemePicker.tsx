import { useState } from 'react'
import { Icon } from '../../ui/Icon.tsx'
import { ANIMATION_LEVELS, THEME_COLOR_KEYS, THEME_PRESETS, THEME_PRESET_NAMES } from '../../config/theme-presets.ts'
import { effectiveColors, useThemeStore } from '../../domain/appearance/theme-store.ts'

type Tab = 'presets' | 'customize'

export function ThemePicker() {
  const [open, setOpen] = useState(false)
  const [tab, setTab] = useState<Tab>('presets')
  const { preset, custom, animation, setPreset, setColor, resetColors, setAnimation } = useThemeStore()
  const colors = effectiveColors({ preset, custom })

  return (
    <div>
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls="theme-picker"
        className="flex w-full items-center gap-2 rounded-md px-3 py-1.5 text-sm text-fg/80 hover:bg-line/40"
      >
        <Icon name="palette" /> Theme
      </button>
      {open && (
        <div id="theme-picker" className="panel mt-2 space-y-3 p-3" data-testid="theme-picker">
          <div role="tablist" aria-label="Theme" className="grid grid-cols-2 gap-1 rounded-md bg-bg p-1 text-xs">
            {(['presets', 'customize'] as const).map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                aria-selected={tab === t}
                id={`theme-tab-${t}`}
                aria-controls={`theme-panel-${t}`}
                onClick={() => setTab(t)}
                className={`rounded px-2 py-1 ${tab === t ? 'bg-primary/20 text-primary' : 'text-muted'}`}
              >
                {t === 'presets' ? 'Theme Presets' : 'Customize'}
              </button>
            ))}
          </div>
          {tab === 'presets' ? (
            <div role="tabpanel" id="theme-panel-presets" aria-labelledby="theme-tab-presets" className="grid grid-cols-1 gap-1">
              {THEME_PRESET_NAMES.map((name) => (
                <button
                  key={name}
                  type="button"
                  onClick={() => setPreset(name)}
                  aria-pressed={preset === name}
                  className={
                    `flex items-center justify-between rounded px-2 py-1 text-sm capitalize ` +
                    `${preset === name ? 'bg-line/60 text-fg' : 'text-fg/80 hover:bg-line/30'}`
                  }
                >
                  <span>{name}</span>
                  <span className="flex gap-0.5" aria-hidden>
                    {(['primary', 'secondary', 'accent'] as const).map((k) => (
                      <span key={k} className="h-3 w-3 rounded-full" style={{ background: THEME_PRESETS[name][k] }} />
                    ))}
                  </span>
                </button>
              ))}
            </div>
          ) : (
            <div role="tabpanel" id="theme-panel-customize" aria-labelledby="theme-tab-customize" className="space-y-1">
              {THEME_COLOR_KEYS.map((key) => (
                <label key={key} className="flex items-center justify-between text-sm capitalize text-fg/80">
                  {key}
                  <input
                    type="color"
                    value={colors[key]}
                    onChange={(e) => setColor(key, e.target.value)}
                    aria-label={`${key} colour`}
                    className="h-6 w-10 cursor-pointer rounded border border-line bg-transparent"
                  />
                </label>
              ))}
              <button
                type="button"
                onClick={resetColors}
                className="mt-1 w-full rounded border border-line px-2 py-1 text-xs text-muted hover:text-fg"
              >
                Reset to preset
              </button>
            </div>
          )}
          <fieldset>
            <legend className="mb-1 text-xs uppercase tracking-widest text-muted">Animation</legend>
            <div className="grid grid-cols-3 gap-1">
              {ANIMATION_LEVELS.map((level) => (
                <button
                  key={level}
                  type="button"
                  aria-pressed={animation === level}
                  onClick={() => setAnimation(level)}
                  className={
                    `rounded px-1 py-1 text-xs capitalize ` +
                    `${animation === level ? 'bg-secondary/25 text-fg' : 'text-muted hover:text-fg'}`
                  }
                >
                  {level}
                </button>
              ))}
            </div>
          </fieldset>
        </div>
      )}
    </div>
  )
}
