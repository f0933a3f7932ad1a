import { useMemo } from 'react'
import { useSessionStore } from '../session/session-store.ts'
import { useCreationStore, type CreationUpload } from './creation-store.ts'
import type { AccountStorage } from '../../backend/creations.ts'

export { formatBytes } from './creation-store.ts'
export type { CreationUpload } from './creation-store.ts'

export interface AccountStorageView {
  signedIn: boolean
  usage: AccountStorage | null
  /** Uploads in progress or held back, in the order they started. */
  uploads: CreationUpload[]
  /** The server's words when the quota refused an upload, or when the account is full. */
  fullMessage: string | null
}

/** What the Library shows about the account's copies of the user's tracks (creation-sync.ts keeps it current). */
export function useAccountStorage(): AccountStorageView {
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const usage = useCreationStore((s) => s.usage)
  const byId = useCreationStore((s) => s.uploads)
  return useMemo(() => {
    const uploads = Object.values(byId)
    const refused = uploads.find((u) => u.status === 'quota')
    const full = usage && usage.usedBytes >= usage.limitBytes
    return {
      signedIn,
      usage,
      uploads,
      fullMessage: refused?.message ?? (full ? 'Your account storage is full. Delete something you made to make room.' : null),
    }
  }, [signedIn, usage, byId])
}
