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

// EBML (Matroska/WebM): an element is its ID's bytes, its size as a variable-length integer, its data.
const ebmlSize = (n: number): number[] => {
  // 8-byte size: 0x01 marker then 7 bytes, big-endian.
  const out = [0x01]
  for (let i = 6; i >= 0; i--) out.push(Math.floor(n / 2 ** (8 * i)) % 256)
  return out
}
const element = (id: number[], data: number[] | Uint8Array): number[] => [...id, ...ebmlSize(data.length), ...data]
const uint = (n: number, bytes: number) => Array.from({ length: bytes }, (_, i) => Math.floor(n / 2 ** (8 * (bytes - 1 - i))) % 256)
const text = (s: string) => [...s].map((c) => c.charCodeAt(0))
const float64 = (x: number) => [...new Uint8Array(new Float64Array([x]).buffer)].reverse()

/**
 * A WebM file whose header says it lasts `seconds` (Segment Info's Duration, as webm-muxer writes
 * it for the app's published audio) with one Opus track, padded with a Void element to `length`
 * bytes: what a parser reads the length from, without real audio frames.
 */
export function webmLasting(seconds: number, length = 20_000): Uint8Array<ArrayBuffer> {
  const header = element(
    [0x1a, 0x45, 0xdf, 0xa3],
    [
      ...element([0x42, 0x86], [1]),
      ...element([0x42, 0xf7], [1]),
      ...element([0x42, 0xf2], [4]),
      ...element([0x42, 0xf3], [8]),
      ...element([0x42, 0x82], text('webm')),
      ...element([0x42, 0x87], [4]),
      ...element([0x42, 0x85], [2]),
    ],
  )
  const info = element(
    [0x15, 0x49, 0xa9, 0x66],
    [
      ...element([0x2a, 0xd7, 0xb1], uint(1_000_000, 3)),
      ...element([0x44, 0x89], float64(seconds * 1000)),
      ...element([0x4d, 0x80], text('cube-test')),
      ...element([0x57, 0x41], text('cube-test')),
    ],
  )
  const tracks = element(
    [0x16, 0x54, 0xae, 0x6b],
    [
      ...element(
        [0xae],
        [
          ...element([0xd7], [1]),
          ...element([0x73, 0xc5], [1]),
          ...element([0x83], [2]),
          ...element([0x86], text('A_OPUS')),
          ...element([0xe1], [...element([0xb5], float64(48_000)), ...element([0x9f], [2])]),
        ],
      ),
    ],
  )
  const fixed = header.length + 12 + info.length + tracks.length + 9
  const pad = Math.max(0, length - fixed)
  const segment = element([0x18, 0x53, 0x80, 0x67], [...info, ...tracks, ...element([0xec], new Uint8Array(pad))])
  return new Uint8Array([...header, ...segment])
}
