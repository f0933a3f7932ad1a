import { useMemo } from 'react'
import type { ThemeColors } from '../../config/theme-presets.ts'
import { effectiveColors, useThemeStore } from './theme-store.ts'

/** The active theme's colours (preset plus custom overrides), for drawings that cannot use CSS variables. */
export function useThemeColors(): ThemeColors {
  const preset = useThemeStore((s) => s.preset)
  const custom = useThemeStore((s) => s.custom)
  const brandPrimary = useThemeStore((s) => s.brandPrimary)
  return useMemo(() => effectiveColors({ preset, custom, brandPrimary }), [preset, custom, brandPrimary])
}
