/**
 * Storage for zustand `persist` that never throws: unreadable JSON, a blocked localStorage or a
 * full quota all read as "nothing stored" / "not saved", so a damaged entry can never break a page.
 */
import type { PersistStorage, StorageValue } from 'zustand/middleware'

export function safeJsonStorage<S>(): PersistStorage<S> {
  const ls = (): Storage | undefined => {
    try {
      return typeof localStorage === 'undefined' ? undefined : localStorage
    } catch {
      return undefined
    }
  }
  return {
    getItem: (name) => {
      try {
        const raw = ls()?.getItem(name)
        if (raw == null) return null
        const parsed: unknown = JSON.parse(raw)
        if (!parsed || typeof parsed !== 'object' || !('state' in parsed)) return null
        return parsed as StorageValue<S>
      } catch {
        return null
      }
    },
    setItem: (name, value) => {
      try {
        ls()?.setItem(name, JSON.stringify(value))
      } catch {
        /* the in-memory state still works for this session */
      }
    },
    removeItem: (name) => {
      try {
        ls()?.removeItem(name)
      } catch {
        /* see setItem */
      }
    },
  }
}
