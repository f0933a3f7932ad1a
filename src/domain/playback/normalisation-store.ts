/**
 * The listener's loudness normalisation setting (Settings → Playback), kept on this device in
 * localStorage like the player's volume: Loud / Normal / Quiet / Off, Normal by default. The player
 * service applies it to the deck (player-service.ts).
 */
import { create } from 'zustand'
import { DEFAULT_NORMALISATION, NORMALISATION_SETTINGS, type NormalisationSetting } from './loudness-normalisation.ts'
import { deviceSetting } from './device-setting.ts'

export const NORMALISATION_STORAGE_KEY = 'cube.playback.normalisation.v1'

export const parseNormalisation = (text: string | null): NormalisationSetting =>
  NORMALISATION_SETTINGS.find((s) => s.value === text)?.value ?? DEFAULT_NORMALISATION

const stored = deviceSetting(NORMALISATION_STORAGE_KEY, parseNormalisation, 'loudness setting')

interface NormalisationState {
  setting: NormalisationSetting
  setSetting: (setting: NormalisationSetting) => void
}

export const useNormalisationStore = create<NormalisationState>()((set) => ({
  setting: stored.read(),
  setSetting: (setting) => {
    const value = parseNormalisation(setting)
    set({ setting: value })
    stored.write(value)
  },
}))
