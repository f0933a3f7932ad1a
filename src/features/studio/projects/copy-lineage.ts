/**
 * Whether uploading this browser's version of a project would overwrite a version it never saw.
 * Outside a live session a project is edited in one browser at a time, but a creator may have it
 * open in two (a laptop and the studio PC): each saves to the account by itself, and the later
 * upload would silently replace the other's work. Each browser therefore remembers which account
 * version its own descends from (`copyOf`: the one it downloaded or last uploaded), and each
 * manifest names the browser that wrote it (`device`). The account's version may be replaced only
 * when this browser wrote it or this browser's version descends from it; otherwise both are kept
 * (studio-project-sync.ts).
 */

/** What the account's manifest says about the version it holds. */
export interface AccountVersion {
  updatedAt: number
  /** The browser that uploaded it; absent in manifests written before browsers were named. */
  device?: string
}

/** What this browser holds of the project. */
export interface LocalVersion {
  updatedAt: number
  /** The account version this one descends from (downloaded, or uploaded from here). */
  copyOf?: number
}

export function overwritesUnseenVersion(account: AccountVersion | null, local: LocalVersion, device: string): boolean {
  if (!account) return false
  if (account.updatedAt === local.updatedAt || account.updatedAt === local.copyOf) return false
  if (account.device === device) return false
  // A manifest from before browsers were named: only a version newer than this one is someone else's.
  if (account.device === undefined && local.copyOf === undefined) return account.updatedAt > local.updatedAt
  return true
}

const DEVICE_KEY = 'cube.studio.device'

let device: string | null = null
/** This browser's name for its uploads: random, kept in localStorage (one per browser profile). */
export const thisDevice = (): string => (device ??= deviceName(safeLocalStorage()))

/** The name kept in `storage`, or a new one written there. */
export function deviceName(storage: Pick<Storage, 'getItem' | 'setItem'> | null): string {
  const kept = storage?.getItem(DEVICE_KEY)
  if (kept && /^[\w-]{8,64}$/.test(kept)) return kept
  const id = crypto.randomUUID()
  try {
    storage?.setItem(DEVICE_KEY, id)
  } catch {
    // A blocked storage: this page keeps its own name, and a reload looks like another browser.
  }
  return id
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/** The name the kept copy of this browser's version gets beside the account's. */
export function conflictCopyName(name: string, max: number): string {
  const suffix = ' (conflicting copy)'
  return `${name.slice(0, Math.max(1, max - suffix.length)).trim()}${suffix}`
}
