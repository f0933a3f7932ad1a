import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { safeJsonStorage } from '../../lib/safe-persist-store.ts'

/**
 * Whether studio exports and microphone takes go to the Library on their own. Off by default:
 * saving is the user's choice (a "Save to Library" action on the notice), not a side effect that
 * filled Libraries with "Microphone take …" entries.
 */
interface LibraryPrefs {
  autoSaveCreations: boolean
  setAutoSaveCreations: (on: boolean) => void
}

export const useLibraryPrefs = create<LibraryPrefs>()(
  persist(
    (set) => ({
      autoSaveCreations: false,
      setAutoSaveCreations: (on) => set({ autoSaveCreations: on }),
    }),
    {
      name: 'cube-library-prefs',
      version: 1,
      storage: safeJsonStorage<Pick<LibraryPrefs, 'autoSaveCreations'>>(),
      partialize: (s) => ({ autoSaveCreations: s.autoSaveCreations }),
      merge: (persisted, current) => ({
        ...current,
        autoSaveCreations: (persisted as { autoSaveCreations?: unknown } | undefined)?.autoSaveCreations === true,
      }),
    },
  ),
)
