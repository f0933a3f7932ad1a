import { useEffect, useSyncExternalStore } from 'react'
import { THEME_COLOR_KEYS } from '../../config/theme-presets.ts'
import { effectiveColors, useThemeStore } from '../../domain/appearance/theme-store.ts'

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)'

function subscribeReducedMotion(cb: () => void) {
  const mq = window.matchMedia(REDUCED_MOTION)
  mq.addEventListener('change', cb)
  return () => mq.removeEventListener('change', cb)
}

export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  )
}

/** Writes the theme into CSS variables on <html>; renders nothing. */
export function ThemeApplier() {
  const preset = useThemeStore((s) => s.preset)
  const custom = useThemeStore((s) => s.custom)
  const animation = useThemeStore((s) => s.animation)
  const scheme = useThemeStore((s) => s.scheme)
  const glow = useThemeStore((s) => s.glow)
  const brandPrimary = useThemeStore((s) => s.brandPrimary)
  const reduced = usePrefersReducedMotion()

  useEffect(() => {
    const root = document.documentElement
    const colors = effectiveColors({ preset, custom, brandPrimary })
    for (const key of THEME_COLOR_KEYS) root.style.setProperty(`--theme-${key}`, colors[key])
    root.dataset.themePreset = preset
    root.classList.toggle('dark', scheme === 'dark')
    root.dataset.animation = reduced ? 'minimal' : animation
    root.dataset.glow = glow ? 'on' : 'off'
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', colors.background)
  }, [preset, custom, animation, scheme, reduced, glow, brandPrimary])

  return null
}
