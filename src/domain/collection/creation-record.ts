/**
 * How a Library track of the user's own becomes a `creations` row and back, and which tracks a sync
 * must send, fetch or drop. Pure: no store, no network (creation-sync.ts does the I/O).
 *
 *   creationKind(id)                        'generated' | 'recording' | 'export' | 'remix' | 'upload'
 *   audioType(blob) → content type          the blob's audio type, else sniffed from its first bytes
 *   creationMeta(song, blob) → CreationMeta
 *   songFromCreation(row) → Song            audioUrl 'idb:<id>': fetched from the account when absent here
 *   planCreationSync({...}) → CreationPlan
 */
import { formatDuration, type Song } from '../../lib/catalogue/song.ts'
import { idbAudioUrl, isIdbAudioUrl } from '../../lib/user-audio-store.ts'
import type { CreationKind, CreationMeta, CreationRow } from '../../backend/creations.ts'
import { ORIGIN_COVERS } from './save-to-library.ts'

const PREFIX_KINDS: readonly [string, CreationKind][] = [
  ['gen-', 'generated'],
  ['take-', 'recording'],
  ['mix-', 'export'],
  ['remix-', 'remix'],
]

export function creationKind(id: string): CreationKind {
  return PREFIX_KINDS.find(([prefix]) => id.startsWith(prefix))?.[1] ?? 'upload'
}

const COVER_OF: Record<CreationKind, string> = {
  generated: ORIGIN_COVERS.generated,
  recording: ORIGIN_COVERS.recording,
  export: ORIGIN_COVERS.export,
  remix: ORIGIN_COVERS.export,
  upload: ORIGIN_COVERS.upload,
}

const ascii = (b: Uint8Array, at: number, s: string) => [...s].every((c, i) => b[at + i] === c.charCodeAt(0))

/** The type the account stores it under, so another device plays it as this one does. */
export async function audioType(blob: Blob): Promise<string> {
  if (/^audio\/[A-Za-z0-9.+-]{1,60}(;[ A-Za-z0-9=.+-]{0,60})?$/.test(blob.type)) return blob.type
  const b = new Uint8Array(await blob.slice(0, 12).arrayBuffer())
  if (ascii(b, 0, 'RIFF')) return 'audio/wav'
  if (ascii(b, 0, 'OggS')) return 'audio/ogg'
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'audio/webm'
  if (ascii(b, 4, 'ftyp')) return 'audio/mp4'
  if (ascii(b, 0, 'fLaC')) return 'audio/flac'
  return 'audio/mpeg'
}

export async function creationMeta(song: Song, blob: Blob): Promise<CreationMeta> {
  const kind = creationKind(song.id)
  return {
    id: song.id,
    kind,
    title: song.title,
    artist: song.artist,
    // Only same-origin cover paths are kept; anything else (a data: URL) falls back to the kind's cover.
    image: /^\/[A-Za-z0-9._/-]+$/.test(song.image) && song.image.length <= 300 ? song.image : COVER_OF[kind],
    seconds: song.seconds ?? 0,
    ...(song.genre ? { genre: song.genre } : {}),
    ...(song.mood ? { mood: song.mood } : {}),
    ...(song.remixId ? { remixId: song.remixId } : {}),
    contentType: await audioType(blob),
    byteSize: blob.size,
  }
}

export function songFromCreation(row: CreationRow): Song {
  return {
    id: row.id,
    title: row.title,
    artist: row.artist,
    duration: formatDuration(row.seconds),
    seconds: row.seconds,
    image: row.image,
    audioUrl: idbAudioUrl(row.id),
    ...(row.genre ? { genre: row.genre } : {}),
    ...(row.mood ? { mood: row.mood } : {}),
    ...(row.remixId ? { remixId: row.remixId } : {}),
  }
}

/** Which account each local track belongs to, and which ones the account holds completely. */
export interface CreationLedger {
  owners: Record<string, string>
  synced: Record<string, string>
}

export interface CreationPlan {
  /** Complete in the account, not in this Library yet. */
  add: CreationRow[]
  /** This user's (or a visitor's, now claimed) tracks the account does not hold completely. */
  upload: string[]
  /** Visitor tracks the signed-in user takes into their account. */
  claim: string[]
  /** Sent from here before, gone from the account since (deleted on another device). */
  dropLocal: string[]
}

export function planCreationSync(input: {
  userId: string
  local: readonly Song[]
  remote: readonly CreationRow[]
  ledger: CreationLedger
}): CreationPlan {
  const { userId, local, remote, ledger } = input
  const complete = new Set(remote.filter((r) => r.uploadedAt).map((r) => r.id))
  const localIds = new Set(local.map((s) => s.id))
  const plan: CreationPlan = { add: [], upload: [], claim: [], dropLocal: [] }
  for (const song of local) {
    if (!isIdbAudioUrl(song.audioUrl)) continue
    const owner = ledger.owners[song.id]
    if (owner === undefined) plan.claim.push(song.id)
    else if (owner !== userId) continue
    if (complete.has(song.id)) continue
    if (owner === userId && ledger.synced[song.id] === userId) plan.dropLocal.push(song.id)
    else plan.upload.push(song.id)
  }
  for (const row of remote) if (row.uploadedAt && !localIds.has(row.id)) plan.add.push(row)
  return plan
}
