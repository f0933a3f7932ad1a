/**
 * A playback setting kept on this device next to the player's own state: read through its parser
 * (a stale, hand-edited or missing value becomes the parser's default) and written as text. A full
 * or blocked storage costs only the setting after a reload, never playback, so neither side throws.
 */
import { playerStorage } from './player-persistence.ts'

export interface DeviceSetting<T> {
  read: () => T
  write: (value: T) => void
}

export function deviceSetting<T>(key: string, parse: (text: string | null) => T, what: string): DeviceSetting<T> {
  return {
    read: () => {
      try {
        return parse(playerStorage()?.getItem(key) ?? null)
      } catch {
        return parse(null)
      }
    },
    write: (value) => {
      try {
        playerStorage()?.setItem(key, String(value))
      } catch (error) {
        console.warn(`[player] could not save the ${what}`, error)
      }
    },
  }
}
