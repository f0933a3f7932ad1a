import { create } from 'zustand'
import { isOneOf, readStored, removeStored, writeStored } from '../../lib/stored-value.ts'
import {
  ANIMATION_LEVELS,
  THEME_COLOR_KEYS,
  THEME_PRESET_NAMES,
  THEME_PRESETS,
  isHexColor,
  type AnimationLevel,
  type ThemeColorKey,
  type ThemeColors,
  type ThemePresetName,
} from '../../config/theme-presets.ts'

export const STORAGE_KEYS = {
  scheme: 'ui-theme',
  preset: 'ui-theme-preset',
  animation: 'ui-animation-level',
  custom: 'ui-custom-colors',
  glow: 'ui-glow',
} as const

const COLOR_SCHEMES = ['dark', 'light'] as const
export type ColorScheme = (typeof COLOR_SCHEMES)[number]

// Custom colours are stored as a partial override of the preset; each entry is checked alone
// so one bad value does not throw away the others.
function validCustom(raw: unknown): Partial<ThemeColors> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined
  const out: Partial<ThemeColors> = {}
  for (const key of THEME_COLOR_KEYS) {
    const v = (raw as Record<string, unknown>)[key]
    if (isHexColor(v)) out[key] = v
  }
  return out
}

interface ThemeState {
  scheme: ColorScheme
  preset: ThemePresetName
  custom: Partial<ThemeColors>
  animation: AnimationLevel
  /** Neon glow on text and panels (Settings › Appearance); off sets --glow-strength to 0. */
  glow: boolean
  setGlow: (on: boolean) => void
  /** The site's brand primary colour (Admin › Site Settings); null: each preset's own. */
  brandPrimary: string | null
  setBrandPrimary: (color: string | null) => void
  setPreset: (preset: ThemePresetName) => void
  setColor: (key: ThemeColorKey, value: string) => void
  resetColors: () => void
  setAnimation: (level: AnimationLevel) => void
}

export const useThemeStore = create<ThemeState>()((set, get) => ({
  scheme: readStored(STORAGE_KEYS.scheme, isOneOf(COLOR_SCHEMES)) ?? 'dark',
  preset: readStored(STORAGE_KEYS.preset, isOneOf(THEME_PRESET_NAMES)) ?? 'cyber',
  custom: readStored(STORAGE_KEYS.custom, validCustom) ?? {},
  animation: readStored(STORAGE_KEYS.animation, isOneOf(ANIMATION_LEVELS)) ?? 'standard',
  glow: readStored(STORAGE_KEYS.glow, (v) => (typeof v === 'boolean' ? v : undefined)) ?? true,
  brandPrimary: null,
  setBrandPrimary: (color) => set({ brandPrimary: isHexColor(color) ? color : null }),
  setGlow: (glow) => {
    writeStored(STORAGE_KEYS.glow, glow)
    set({ glow })
  },
  setPreset: (preset) => {
    writeStored(STORAGE_KEYS.preset, preset)
    removeStored(STORAGE_KEYS.custom)
    set({ preset, custom: {} })
  },
  setColor: (key, value) => {
    if (!isHexColor(value)) return
    const custom = { ...get().custom, [key]: value }
    writeStored(STORAGE_KEYS.custom, custom)
    set({ custom })
  },
  resetColors: () => {
    removeStored(STORAGE_KEYS.custom)
    set({ custom: {} })
  },
  setAnimation: (animation) => {
    writeStored(STORAGE_KEYS.animation, animation)
    set({ animation })
  },
}))

/** The preset, then the site's brand primary, then the user's own colours (theirs win). */
export const effectiveColors = (s: Pick<ThemeState, 'preset' | 'custom'> & { brandPrimary?: string | null }): ThemeColors => ({
  ...THEME_PRESETS[s.preset],
  ...(s.brandPrimary ? { primary: s.brandPrimary } : {}),
  ...s.custom,
})
