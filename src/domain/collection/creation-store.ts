/**
 * What the Library shows about the account's copies of the user's tracks: the storage used and its
 * limit, each upload in progress (or waiting for a connection, or refused by the quota), and the
 * ledger of which local track belongs to which account, kept on the device ('cube-account-creations').
 * Data only; creation-sync.ts fills it.
 */
import { create } from 'zustand'
import type { AccountStorage } from '../../backend/creations.ts'
import type { CreationLedger } from './creation-record.ts'

export type CreationUploadStatus = 'uploading' | 'waiting' | 'quota' | 'failed'

export interface CreationUpload {
  id: string
  title: string
  /** 0–1: the share of its bytes in the account. */
  fraction: number
  status: CreationUploadStatus
  /** In words, for 'waiting', 'quota' and 'failed'. */
  message?: string
}

interface CreationState {
  usage: AccountStorage | null
  uploads: Record<string, CreationUpload>
  setUsage: (usage: AccountStorage | null) => void
  setUpload: (upload: CreationUpload) => void
  clearUpload: (id: string) => void
  clearAll: () => void
}

export const useCreationStore = create<CreationState>()((set) => ({
  usage: null,
  uploads: {},
  setUsage: (usage) => set({ usage }),
  setUpload: (upload) => set((s) => ({ uploads: { ...s.uploads, [upload.id]: upload } })),
  clearUpload: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.uploads
      return { uploads: rest }
    }),
  clearAll: () => set({ usage: null, uploads: {} }),
}))

export const CREATION_LEDGER_KEY = 'cube-account-creations'

export interface StoredLedger extends CreationLedger {
  /** Deletions the account has not confirmed yet, with the account they are for. */
  deletes: { id: string; userId: string }[]
}

const isRecord = (v: unknown): v is Record<string, string> =>
  !!v && typeof v === 'object' && Object.values(v as object).every((x) => typeof x === 'string')

export function readLedger(): StoredLedger {
  try {
    const raw = JSON.parse(localStorage.getItem(CREATION_LEDGER_KEY) ?? 'null') as Partial<StoredLedger> | null
    return {
      owners: isRecord(raw?.owners) ? raw.owners : {},
      synced: isRecord(raw?.synced) ? raw.synced : {},
      deletes: Array.isArray(raw?.deletes) ? raw.deletes.filter((d) => typeof d?.id === 'string' && typeof d?.userId === 'string') : [],
    }
  } catch {
    return { owners: {}, synced: {}, deletes: [] }
  }
}

export function writeLedger(ledger: StoredLedger): void {
  try {
    localStorage.setItem(CREATION_LEDGER_KEY, JSON.stringify(ledger))
  } catch {
    /* private mode: the ledger lives for this page only, and the next sync rebuilds it from the account */
  }
}

export function updateLedger(change: (ledger: StoredLedger) => void): StoredLedger {
  const ledger = readLedger()
  change(ledger)
  writeLedger(ledger)
  return ledger
}

/** "12.3 MB", in units of 1024 as the quota is set (500 MB = 524,288,000 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`
}
