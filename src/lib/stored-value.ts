// Everything we keep in localStorage can be stale, hand-edited or written by an older build.
// Reads go through a validator; anything it rejects is treated as absent, never trusted.

export type Validator<T> = (raw: unknown) => T | undefined

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage
  } catch {
    return undefined
  }
}

export function readStored<T>(key: string, validate: Validator<T>): T | undefined {
  const raw = storage()?.getItem(key)
  if (raw == null) return undefined
  try {
    return validate(JSON.parse(raw))
  } catch {
    return undefined
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value))
  } catch {
    // Quota or privacy mode: the in-memory state still works for this session.
  }
}

export function removeStored(key: string): void {
  try {
    storage()?.removeItem(key)
  } catch {
    /* see writeStored */
  }
}

export const isOneOf =
  <T extends string>(options: readonly T[]): Validator<T> =>
  (raw) =>
    typeof raw === 'string' && (options as readonly string[]).includes(raw) ? (raw as T) : undefined
