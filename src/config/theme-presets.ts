export const THEME_COLOR_KEYS = ['primary', 'secondary', 'accent', 'background', 'panel', 'border', 'text', 'muted'] as const
export type ThemeColorKey = (typeof THEME_COLOR_KEYS)[number]
export type ThemeColors = Record<ThemeColorKey, string>

export const THEME_PRESET_NAMES = ['cyber', 'synthwave', 'midnight', 'emerald', 'sunset'] as const
export type ThemePresetName = (typeof THEME_PRESET_NAMES)[number]

export const THEME_PRESETS: Record<ThemePresetName, ThemeColors> = {
  cyber: {
    primary: '#00f0ff',
    secondary: '#ff00c8',
    accent: '#f5ff00',
    background: '#05010f',
    panel: '#0d0820',
    border: '#2a1f4d',
    text: '#e8f7ff',
    muted: '#9a93b8',
  },
  synthwave: {
    primary: '#ff2fd1',
    secondary: '#7b2fff',
    accent: '#ffb800',
    background: '#12021f',
    panel: '#1d0833',
    border: '#4a1d6b',
    text: '#fbe9ff',
    muted: '#b79ac9',
  },
  midnight: {
    primary: '#5b8cff',
    secondary: '#9d7bff',
    accent: '#3ee6c1',
    background: '#03060f',
    panel: '#0a1122',
    border: '#1f2c4d',
    text: '#e3ebff',
    muted: '#8f9bbb',
  },
  emerald: {
    primary: '#1bff9a',
    secondary: '#00c2ff',
    accent: '#d4ff3a',
    background: '#020c08',
    panel: '#071a12',
    border: '#15402c',
    text: '#e4fff2',
    muted: '#8fb8a5',
  },
  sunset: {
    primary: '#ff7a1a',
    secondary: '#ff2e63',
    accent: '#ffd23f',
    background: '#120507',
    panel: '#1f0b0f',
    border: '#4d1d24',
    text: '#fff0e8',
    muted: '#c49a92',
  },
}

export const ANIMATION_LEVELS = ['minimal', 'standard', 'maximum'] as const
export type AnimationLevel = (typeof ANIMATION_LEVELS)[number]

export const isHexColor = (v: unknown): v is string => typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v)
