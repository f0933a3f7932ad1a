import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js'
import type { Tables } from './database.types.ts'

// Metadata of the signed-in user's Music Studio projects (table studio_projects, RLS: own rows
// only; user_id defaults to auth.uid()). The mix and its audio stay in the browser's IndexedDB;
// `id` is the local project's id. Every call takes the supabase-js client (the app passes
// supabase() from client.ts), so the module has no browser globals and Node tests use it as is.

export interface StudioProjectMeta {
  id: string
  name: string
  trackCount: number
  durationSeconds: number
  createdAt: string
  updatedAt: string
  /** The updatedAt of the local version whose full copy (mix and audio) is in the account; null: none. */
  audioUploadedAt: string | null
}

export interface StudioProjectUpsert {
  id: string
  name: string
  trackCount: number
  durationSeconds: number
  /** Local creation/update times (ms since epoch), kept so every device shows the same dates. */
  createdAt: number
  updatedAt: number
}

/** Matches the table's check: 1–120 characters after trimming. */
export const STUDIO_PROJECT_NAME_MAX = 120

const COLUMNS = 'id, name, track_count, duration_seconds, created_at, updated_at, audio_uploaded_at'

type Row = Pick<
  Tables<'studio_projects'>,
  'id' | 'name' | 'track_count' | 'duration_seconds' | 'created_at' | 'updated_at' | 'audio_uploaded_at'
>

const fromRow = (r: Row): StudioProjectMeta => ({
  id: String(r.id),
  name: String(r.name),
  trackCount: Number(r.track_count),
  durationSeconds: Number(r.duration_seconds),
  createdAt: String(r.created_at),
  updatedAt: String(r.updated_at),
  audioUploadedAt: r.audio_uploaded_at ? String(r.audio_uploaded_at) : null,
})

/**
 * The HTTP status rides on the error (0 = the server was not reached), so the sync can tell a lost
 * connection or a server hiccup, worth retrying, from a refusal, which retrying cannot fix.
 */
export type StudioProjectError = PostgrestError & { status: number }

function failed(error: PostgrestError, status: number): StudioProjectError {
  return Object.assign(error, { status })
}

function cleanName(name: string): string {
  const clean = name.trim().slice(0, STUDIO_PROJECT_NAME_MAX)
  if (!clean) throw new Error('A project needs a name.')
  return clean
}

/** The caller's projects, most recently updated first. */
export async function listStudioProjects(db: SupabaseClient): Promise<StudioProjectMeta[]> {
  const { data, error, status } = await db.from('studio_projects').select(COLUMNS).order('updated_at', { ascending: false })
  if (error) throw failed(error, status)
  return ((data ?? []) as Row[]).map(fromRow)
}

/** Creates or updates the metadata row of one local project. */
export async function upsertStudioProject(db: SupabaseClient, p: StudioProjectUpsert): Promise<StudioProjectMeta> {
  if (!Number.isInteger(p.trackCount) || p.trackCount < 0) throw new Error('Invalid track count.')
  if (!Number.isFinite(p.durationSeconds) || p.durationSeconds < 0) throw new Error('Invalid duration.')
  const row = {
    id: p.id,
    name: cleanName(p.name),
    track_count: p.trackCount,
    // Milliseconds are enough; numeric keeps them exactly.
    duration_seconds: Math.round(p.durationSeconds * 1000) / 1000,
    created_at: new Date(p.createdAt).toISOString(),
    updated_at: new Date(p.updatedAt).toISOString(),
  }
  const { data, error, status } = await db.from('studio_projects').upsert(row, { onConflict: 'id' }).select(COLUMNS).single()
  if (error) throw failed(error, status)
  return fromRow(data as Row)
}

export async function renameStudioProject(db: SupabaseClient, id: string, name: string): Promise<void> {
  const { error, status } = await db
    .from('studio_projects')
    .update({ name: cleanName(name), updated_at: new Date().toISOString() })
    .eq('id', id)
  if (error) throw failed(error, status)
}

/** Records that the account now holds the full copy of the project's version `at` (its updatedAt). */
export async function markStudioProjectUploaded(db: SupabaseClient, id: string, at: string): Promise<void> {
  const { data, error, status } = await db.from('studio_projects').update({ audio_uploaded_at: at }).eq('id', id).select('id')
  if (error) throw failed(error, status)
  if (!data || data.length === 0) throw new Error('The project is not in your account.')
}

export async function deleteStudioProject(db: SupabaseClient, id: string): Promise<void> {
  const { error, status } = await db.from('studio_projects').delete().eq('id', id)
  if (error) throw failed(error, status)
}
