export { ThemeApplier } from './ThemeApplier.tsx'
export { ThemePicker } from './ThemePicker.tsx'
export { useThemeColors } from './useThemeColors.ts'
export { useThemeStore } from './theme-store.ts'
