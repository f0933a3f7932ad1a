/**
 * The listener's loudness normalisation setting (Settings → Playback), kept on this device in
 * localStorage like the player's volume: Loud / Normal / Quiet / Off, Normal by default. The player
 * service applies it to the deck (player-service.ts).
 */
import { create } from 'zustand'
import { DEFAULT_NORMALISATION, NORMALISATION_SETTINGS, type NormalisationSetting } from './loudness-normalisation.ts'
import { playerStorage } from './player-persistence.ts'

export const NORMALISATION_STORAGE_KEY = 'cube.playback.normalisation.v1'

export const parseNormalisation = (text: string | null): NormalisationSetting =>
  NORMALISATION_SETTINGS.find((s) => s.value === text)?.value ?? DEFAULT_NORMALISATION

function read(): NormalisationSetting {
  try {
    return parseNormalisation(playerStorage()?.getItem(NORMALISATION_STORAGE_KEY) ?? null)
  } catch {
    return DEFAULT_NORMALISATION
  }
}

interface NormalisationState {
  setting: NormalisationSetting
  setSetting: (setting: NormalisationSetting) => void
}

export const useNormalisationStore = create<NormalisationState>()((set) => ({
  setting: read(),
  setSetting: (setting) => {
    const value = parseNormalisation(setting)
    set({ setting: value })
    try {
      playerStorage()?.setItem(NORMALISATION_STORAGE_KEY, value)
    } catch (error) {
      // A full or blocked storage costs only the setting after a reload, never playback.
      console.warn('[player] could not save the loudness setting', error)
    }
  },
}))
