import { useEffect, useState } from 'react'
import { errorMessage } from '../../lib/error-message.ts'

export type Loaded<T> = { state: 'loading' } | { state: 'missing' } | { state: 'error'; message: string } | { state: 'ready'; data: T }

/** Loads what a public page shows for `key` (a slug, a username); `load` answering null is the not-found page. */
export function usePublicData<T>(load: (key: string) => Promise<T | null>, key: string): Loaded<T> {
  const [value, setValue] = useState<{ key: string; loaded: Loaded<T> } | null>(null)
  useEffect(() => {
    let live = true
    load(key).then(
      (data) => live && setValue({ key, loaded: data === null ? { state: 'missing' } : { state: 'ready', data } }),
      (error: unknown) => live && setValue({ key, loaded: { state: 'error', message: errorMessage(error) } }),
    )
    return () => {
      live = false
    }
  }, [load, key])
  return value?.key === key ? value.loaded : { state: 'loading' }
}
