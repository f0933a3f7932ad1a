/**
 * Storage checks that an image or audio file's bytes bear out its declared type (docs/security.md item
 * 2): test data standing in for a real file starts with that format's signature, and keeps its
 * length (size-limit tests depend on it).
 */
const SIGNATURES: Readonly<Record<string, readonly (number | string)[]>> = {
  'image/png': [0x89, 'PNG\r\n\x1a\n'],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/webp': ['RIFF', 0, 0, 0, 0, 'WEBP'],
  'image/gif': ['GIF89a'],
  'audio/wav': ['RIFF', 0, 0, 0, 0, 'WAVE'],
  'audio/webm': [0x1a, 0x45, 0xdf, 0xa3],
  'audio/ogg': ['OggS'],
  'audio/mpeg': ['ID3'],
}

export function withSignature(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const parts = SIGNATURES[type]
  if (!parts) throw new Error(`no test signature for ${type}`)
  const signature = parts.flatMap((p) => (typeof p === 'number' ? [p] : [...p].map((c) => c.charCodeAt(0))))
  const out = new Uint8Array(Math.max(data.length, signature.length))
  out.set(data)
  out.set(signature)
  return out
}
