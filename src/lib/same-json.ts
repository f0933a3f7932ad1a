/**
 * Deep equality of JSON-shaped values (objects, arrays, numbers, strings, booleans, null), where a
 * property holding `undefined` counts as absent and key order does not matter: the test for "this
 * state read back from a shared document is the one the store already holds".
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bs = b as unknown[]
    return a.length === bs.length && a.every((v, i) => sameJson(v, bs[i]))
  }
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)])
  for (const k of keys) if (!sameJson(ao[k], bo[k])) return false
  return true
}
