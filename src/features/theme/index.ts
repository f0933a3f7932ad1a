export { ThemeApplier } from './ThemeApplier.tsx'
export { ThemePicker } from './ThemePicker.tsx'
