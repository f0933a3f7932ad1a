import { open } from 'node:fs/promises'
import { invalidMimeType } from './errors.ts'

/** How many leading bytes the signatures below need. */
const HEAD_BYTES = 16

const ascii = (head: Uint8Array, at: number, text: string) => [...text].every((c, i) => head[at + i] === c.charCodeAt(0))
const riff = (head: Uint8Array, form: string) => ascii(head, 0, 'RIFF') && ascii(head, 8, form)
const mp3Frame = (head: Uint8Array) => head[0] === 0xff && (head[1]! & 0xe0) === 0xe0
const isoMedia = (head: Uint8Array) => ascii(head, 4, 'ftyp')
const ebml = (head: Uint8Array) => head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3

/**
 * The image and audio types whose bytes the server checks, each with its file signature. These,
 * and only these, are served for the browser to show inline; a declared type outside this table
 * that claims to be an image or audio is refused, because nothing would back the claim.
 */
const SIGNATURES: Readonly<Record<string, (head: Uint8Array) => boolean>> = {
  'image/png': (h) => h[0] === 0x89 && ascii(h, 1, 'PNG\r\n\x1a\n'),
  'image/jpeg': (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  'image/webp': (h) => riff(h, 'WEBP'),
  'image/gif': (h) => ascii(h, 0, 'GIF87a') || ascii(h, 0, 'GIF89a'),
  'audio/webm': ebml,
  'audio/ogg': (h) => ascii(h, 0, 'OggS'),
  'audio/opus': (h) => ascii(h, 0, 'OggS'),
  'audio/mpeg': (h) => ascii(h, 0, 'ID3') || mp3Frame(h),
  'audio/wav': (h) => riff(h, 'WAVE'),
  'audio/wave': (h) => riff(h, 'WAVE'),
  'audio/x-wav': (h) => riff(h, 'WAVE'),
  'audio/mp4': isoMedia,
  'audio/x-m4a': isoMedia,
  'audio/aac': (h) => isoMedia(h) || (h[0] === 0xff && (h[1]! & 0xf6) === 0xf0),
  'audio/flac': (h) => ascii(h, 0, 'fLaC'),
  'audio/x-flac': (h) => ascii(h, 0, 'fLaC'),
}

const claimsMedia = (essence: string) => essence.startsWith('image/') || essence.startsWith('audio/') || essence.startsWith('video/')

/** Whether a stored object of this type may be shown inline by the browser (its bytes were checked). */
export const isCheckedMedia = (essence: string): boolean => essence in SIGNATURES

/**
 * Refuses a file whose declared image or audio type its first bytes do not bear out (an HTML
 * page uploaded as image/png, say). Other types (JSON, WAV-less text) are not media and are
 * served as downloads, so they need no signature.
 */
export async function checkMagicBytes(file: string, essence: string): Promise<void> {
  if (!claimsMedia(essence)) return
  const signature = SIGNATURES[essence]
  if (!signature)
    throw invalidMimeType(
      essence,
      'this server only accepts images and audio whose bytes it can check (PNG, JPEG, WebP, GIF; WebM, Ogg, MP3, WAV, MP4/M4A, FLAC)',
    )
  const head = new Uint8Array(HEAD_BYTES)
  const handle = await open(file, 'r')
  try {
    await handle.read(head, 0, HEAD_BYTES, 0)
  } finally {
    await handle.close()
  }
  if (!signature(head))
    throw invalidMimeType(essence, `the file's bytes are not ${essence} (its first bytes do not match that format's signature)`)
}
