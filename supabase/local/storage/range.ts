/** The byte range a `Range` header asks for, inclusive at both ends. */
export interface ByteRange {
  start: number
  end: number
}

/**
 * Reads `Range: bytes=a-b | a- | -n` for an object of `size` bytes (RFC 9110 §14.1.2): undefined
 * means the whole object (no header, another unit, several ranges, or a malformed header, all of
 * which a server may answer with 200 and everything); 'unsatisfiable' a range that starts past
 * the end (416). The end is clamped to the object's last byte.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match) return undefined
  const [, first, last] = match
  if (first === '' && last === '') return undefined
  if (size === 0) return 'unsatisfiable'
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Number(last)
  if (last !== '' && end < start) return undefined
  if (start >= size) return 'unsatisfiable'
  return { start, end: Math.min(end, size - 1) }
}
