import type { SupabaseClient } from '@supabase/supabase-js'
import type { Tables } from './database.types.ts'

/**
 * The signed-in user's own Library tracks kept in the account (supabase/schemas/creations.sql):
 * a `creations` row per track (RLS: own rows only) and its audio in the private bucket 'creations'
 * as parts of CREATION_PART_BYTES, `<userId>/<id>/part-0000` …, each one an ordinary supabase-js
 * upload. An upload resumes by listing the parts already there and sending only the rest, and a part
 * that fails on a bad connection is retried; the account's quota is enforced by the database on
 * the row and on every part (a refusal is a CreationError of kind 'quota', in the server's words).
 *
 *   listCreations(db) → CreationRow[]               complete and unfinished, newest first
 *   beginCreation(db, meta)                         the row (uploaded_at null); again: no-op
 *   uploadCreationParts(db, userId, id, blob, onProgress?, attempts?)
 *   finishCreation(db, id)                          marks it complete (listed on other devices)
 *   downloadCreationAudio(db, userId, row) → Blob
 *   deleteCreation(db, userId, id)                  its parts first, then the row
 *   fetchAccountStorage(db) → { usedBytes, limitBytes, items }
 */

export const CREATIONS_BUCKET = 'creations'
/** The bucket's file size limit: small enough that a lost connection costs at most one part. */
export const CREATION_PART_BYTES = 4 * 1024 * 1024

export type CreationKind = 'generated' | 'recording' | 'upload' | 'export' | 'remix'

export interface CreationMeta {
  id: string
  kind: CreationKind
  title: string
  artist: string
  image: string
  seconds: number
  genre?: string
  mood?: string
  remixId?: string
  contentType: string
  byteSize: number
}

export interface CreationRow extends CreationMeta {
  partCount: number
  uploadedAt: string | null
  createdAt: string
}

export interface AccountStorage {
  usedBytes: number
  limitBytes: number
  items: number
}

/**
 * 'quota': the account is full (retrying will not help until something is deleted); 'network': worth
 * retrying; 'refused': anything else.
 */
export type CreationErrorKind = 'quota' | 'network' | 'refused'

export class CreationError extends Error {
  constructor(
    readonly kind: CreationErrorKind,
    message: string,
  ) {
    super(message)
    this.name = 'CreationError'
  }
}

type Row = Tables<'creations'>
const COLUMNS =
  'id, kind, title, artist, image, seconds, genre, mood, remix_id, content_type, byte_size, part_count, uploaded_at, created_at'

const fromRow = (r: Row): CreationRow => ({
  id: r.id,
  kind: r.kind as CreationKind,
  title: r.title,
  artist: r.artist,
  image: r.image,
  seconds: Number(r.seconds),
  ...(r.genre ? { genre: r.genre } : {}),
  ...(r.mood ? { mood: r.mood } : {}),
  ...(r.remix_id ? { remixId: r.remix_id } : {}),
  contentType: r.content_type,
  byteSize: Number(r.byte_size),
  partCount: Number(r.part_count),
  uploadedAt: r.uploaded_at,
  createdAt: r.created_at,
})

export const partCountOf = (byteSize: number) => Math.max(1, Math.ceil(byteSize / CREATION_PART_BYTES))
const folder = (userId: string, id: string) => `${userId}/${id}`
export const partName = (index: number) => `part-${String(index).padStart(4, '0')}`

/** A PostgREST or Storage failure as a CreationError: status 0/5xx and fetch failures are the connection's fault. */
function classify(error: { message: string; status?: number; statusCode?: string; code?: string }, status?: number): CreationError {
  const http = status ?? error.status ?? (error.statusCode ? Number(error.statusCode) : undefined)
  const code = String(error.code ?? '')
  if (code === 'PT413' || http === 413 || error.statusCode === '413') return new CreationError('quota', error.message)
  if (http === undefined || http === 0 || http >= 500 || /fetch|network|connection/i.test(error.message))
    return new CreationError('network', `Your account could not be reached: ${error.message}`)
  return new CreationError('refused', error.message)
}

export async function listCreations(db: SupabaseClient): Promise<CreationRow[]> {
  const { data, error, status } = await db.from('creations').select(COLUMNS).order('created_at', { ascending: false })
  if (error) throw classify(error, status)
  return ((data ?? []) as Row[]).map(fromRow)
}

export async function beginCreation(db: SupabaseClient, meta: CreationMeta): Promise<void> {
  if (!Number.isInteger(meta.byteSize) || meta.byteSize <= 0) throw new CreationError('refused', 'This track has no audio to keep.')
  const row = {
    id: meta.id,
    kind: meta.kind,
    title: meta.title.trim().slice(0, 200) || 'Untitled',
    artist: meta.artist.trim().slice(0, 200) || 'You',
    image: meta.image,
    seconds: Math.round(Math.max(0, meta.seconds) * 1000) / 1000,
    genre: meta.genre?.slice(0, 60) ?? null,
    mood: meta.mood?.slice(0, 60) ?? null,
    remix_id: meta.remixId ?? null,
    content_type: meta.contentType,
    byte_size: meta.byteSize,
    part_count: partCountOf(meta.byteSize),
  }
  const { error, status } = await db.from('creations').insert(row)
  // Already begun (a resumed upload): the row stands as it was.
  if (error && error.code !== '23505') throw classify(error, status)
}

/**
 * Sends the parts the account does not hold yet (a part of the right size is not sent again), each
 * tried `attempts` times while the connection is at fault. onProgress gets the fraction of bytes in
 * the account.
 */
export async function uploadCreationParts(
  db: SupabaseClient,
  userId: string,
  id: string,
  blob: Blob,
  onProgress?: (fraction: number) => void,
  attempts = 3,
): Promise<void> {
  const bucket = db.storage.from(CREATIONS_BUCKET)
  const base = folder(userId, id)
  const { data: listed, error: listError } = await bucket.list(base, { limit: 1000 })
  if (listError) throw classify(listError as never)
  const have = new Map((listed ?? []).map((o) => [o.name, Number((o.metadata as { size?: number } | null)?.size ?? -1)]))
  const count = partCountOf(blob.size)
  let done = 0
  const report = () => onProgress?.(Math.min(1, done / blob.size))
  report()
  for (let i = 0; i < count; i++) {
    const part = blob.slice(i * CREATION_PART_BYTES, Math.min(blob.size, (i + 1) * CREATION_PART_BYTES))
    if (have.get(partName(i)) !== part.size) {
      for (let attempt = 1; ; attempt++) {
        const { error } = await bucket.upload(`${base}/${partName(i)}`, part, { contentType: 'application/octet-stream', upsert: true })
        if (!error) break
        const failure = classify(error as never)
        if (failure.kind !== 'network' || attempt >= attempts) throw failure
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt))
      }
    }
    done += part.size
    report()
  }
}

export async function finishCreation(db: SupabaseClient, id: string): Promise<void> {
  const { data, error, status } = await db.from('creations').update({ uploaded_at: new Date().toISOString() }).eq('id', id).select('id')
  if (error) throw classify(error, status)
  if (!data || data.length === 0) throw new CreationError('refused', 'This track is not in your account.')
}

export async function downloadCreationAudio(db: SupabaseClient, userId: string, row: CreationRow): Promise<Blob> {
  const bucket = db.storage.from(CREATIONS_BUCKET)
  const parts: Blob[] = []
  for (let i = 0; i < row.partCount; i++) {
    const { data, error } = await bucket.download(`${folder(userId, row.id)}/${partName(i)}`)
    if (error) throw classify(error as never)
    parts.push(data)
  }
  const blob = new Blob(parts, { type: row.contentType })
  if (blob.size !== row.byteSize)
    throw new CreationError('refused', `The copy of "${row.title}" in your account is incomplete (${blob.size} of ${row.byteSize} bytes).`)
  return blob
}

/** Removes the track's files, then its row, so a row never points at files that are gone while they still count. */
export async function deleteCreation(db: SupabaseClient, userId: string, id: string): Promise<void> {
  const bucket = db.storage.from(CREATIONS_BUCKET)
  const base = folder(userId, id)
  const { data: listed, error: listError } = await bucket.list(base, { limit: 1000 })
  if (listError) throw classify(listError as never)
  const names = (listed ?? []).filter((o) => o.id !== null).map((o) => `${base}/${o.name}`)
  if (names.length) {
    const { error } = await bucket.remove(names)
    if (error) throw classify(error as never)
  }
  const { error, status } = await db.from('creations').delete().eq('id', id)
  if (error) throw classify(error, status)
}

export async function fetchAccountStorage(db: SupabaseClient): Promise<AccountStorage> {
  const { data, error, status } = await db.rpc('account_storage')
  if (error) throw classify(error, status)
  const d = data as { used_bytes: number | string; limit_bytes: number | string; items: number | string }
  return { usedBytes: Number(d.used_bytes), limitBytes: Number(d.limit_bytes), items: Number(d.items) }
}
