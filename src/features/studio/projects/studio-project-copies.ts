/**
 * A studio project's full copy in the signed-in user's account, so it opens in any browser they
 * sign in to. Supabase Storage, private bucket 'studio-audio', RLS: each user's own folder only
 * (supabase/schemas/storage.sql):
 *
 *   <uid>/<projectId>/project.json    manifest: name, dates, the mix (MixerState) and its audio files
 *   <uid>/<projectId>/<audioId>.wav   each track's audio as 32-bit float WAV (round-trips bit for bit)
 *
 * The manifest is written last, so a copy exists only once it is complete; audio files already in
 * the project's folder are not sent again (an audioId's audio never changes), so an upload cut off
 * half way resumes where it stopped. studio_projects.audio_uploaded_at
 * then holds the updatedAt of the local version the copy is of, so every device can tell whether
 * the copy is current.
 *
 *   uploadProjectCopy(db, userId, project, readAudio, onProgress?, device?) → audioUploadedAt (ISO)
 *                      a ProjectConflictError, writing nothing, when the account holds a version
 *                      another browser uploaded that this one never saw (copy-lineage.ts)
 *   downloadProjectCopy(db, userId, projectId, onProgress?) → { project, audio }   validated
 *   deleteProjectFromAccount(db, userId, projectId)   its copy (below), then its row
 *   removeProjectCopy(db, userId, projectId)   deletes the manifest, then every file in the
 *                                              project's folder (also files of an upload that never
 *                                              finished, and the audio shared in a live session),
 *                                              which frees their bytes of the account's quota
 *
 * Failures are ProjectCopyErrors whose `status` is the server's HTTP status (0: not reached), so
 * the account sync can retry a lost connection and report a refusal.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { mixDuration, sanitizeState } from '../../../engine/mixer-model.ts'
import { decodeWavFile, encodeWavBuffer } from '../../../engine/workers.ts'
import type { StoredAudio, StoredProject } from '../../../engine/project-db.ts'
import { deleteStudioProject, markStudioProjectUploaded, upsertStudioProject } from '../../../backend/studio-projects.ts'
import { isTransientSyncError } from './studio-project-outbox.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { overwritesUnseenVersion, thisDevice } from './copy-lineage.ts'

export const STUDIO_AUDIO_BUCKET = 'studio-audio'
const MANIFEST = 'project.json'
const FORMAT = 'cube-studio-project'

interface ManifestAudio {
  id: string
  file: string
  sampleRate: number
  channels: number
  frames: number
}

interface Manifest {
  format: typeof FORMAT
  version: 1
  id: string
  name: string
  createdAt: number
  updatedAt: number
  state: StoredProject['state']
  audio: ManifestAudio[]
  /** The browser that uploaded this version (copy-lineage.ts). */
  device?: string
}

/** The account holds a version of the project this browser never saw: it is not overwritten. */
export class ProjectConflictError extends Error {
  constructor(readonly accountUpdatedAt: number) {
    super('This project was changed in another browser since this one last had it.')
    this.name = 'ProjectConflictError'
  }
}

export class ProjectCopyError extends Error {
  constructor(
    message: string,
    /** The server's HTTP status; 0 when it was not reached; undefined when it is no server's answer. */
    readonly status?: number,
  ) {
    super(message)
    this.name = 'ProjectCopyError'
  }
}

/** A Storage failure in words, with its status (storage-js leaves it out when the server was not reached). */
function storageFailure(what: string, error: { message: string }): ProjectCopyError {
  const status = (error as { status?: unknown }).status
  return new ProjectCopyError(`${what}: ${error.message}`, typeof status === 'number' ? status : 0)
}

const LIST_PAGE = 1000

/** The names of the files in the project's folder (RLS: the caller's own folder only). */
async function filesInFolder(db: SupabaseClient, base: string): Promise<string[]> {
  const names: string[] = []
  for (let offset = 0; ; offset += LIST_PAGE) {
    const { data, error } = await db.storage.from(STUDIO_AUDIO_BUCKET).list(base, { limit: LIST_PAGE, offset })
    if (error) throw storageFailure('Could not read the project copy in your account', error)
    names.push(...data.filter((f) => f.id !== null).map((f) => f.name))
    if (data.length < LIST_PAGE) return names
  }
}

const folder = (userId: string, projectId: string) => `${userId}/${projectId}`
const fileFor = (audioId: string) => `${audioId.replace(/[^\w.-]/g, '_')}.wav`

async function readManifest(db: SupabaseClient, userId: string, projectId: string): Promise<Manifest | null> {
  const { data, error } = await db.storage.from(STUDIO_AUDIO_BUCKET).download(`${folder(userId, projectId)}/${MANIFEST}`)
  if (error) {
    const status = (error as { status?: number; statusCode?: string }).statusCode ?? String((error as { status?: number }).status ?? '')
    if (status === '404' || /not found/i.test(error.message)) return null
    throw storageFailure('Could not read the project copy in your account', error)
  }
  let raw: unknown
  try {
    raw = JSON.parse(await data.text())
  } catch {
    throw new ProjectCopyError('The project copy in your account is damaged (its manifest is not JSON).')
  }
  return parseManifest(raw, projectId)
}

/** Checks a manifest's shape; anything off is a ProjectCopyError naming the problem. */
export function parseManifest(raw: unknown, projectId: string): Manifest {
  const m = raw as Partial<Manifest> | null
  const bad = (why: string) => new ProjectCopyError(`The project copy in your account is damaged: ${why}.`)
  if (!m || typeof m !== 'object' || m.format !== FORMAT || m.version !== 1) throw bad('unknown manifest format')
  if (m.id !== projectId) throw bad('it belongs to another project')
  if (typeof m.name !== 'string' || !m.name.trim()) throw bad('no name')
  if (!Number.isFinite(m.createdAt) || !Number.isFinite(m.updatedAt)) throw bad('no dates')
  if (!Array.isArray(m.audio)) throw bad('no audio list')
  const audio: ManifestAudio[] = m.audio.map((a: Partial<ManifestAudio>) => {
    if (!a || typeof a.id !== 'string' || typeof a.file !== 'string' || a.file !== fileFor(a.id)) throw bad('an audio entry is malformed')
    if (
      !Number.isInteger(a.sampleRate) ||
      a.sampleRate! < 3000 ||
      !Number.isInteger(a.channels) ||
      a.channels! < 1 ||
      a.channels! > 32 ||
      !Number.isInteger(a.frames) ||
      a.frames! < 0
    )
      throw bad(`audio ${a.id} has an invalid format`)
    return { id: a.id, file: a.file, sampleRate: a.sampleRate!, channels: a.channels!, frames: a.frames! }
  })
  const state = sanitizeState(m.state)
  const have = new Set(audio.map((a) => a.id))
  const missing = state.tracks.find((t) => !have.has(t.audioId))
  if (missing) throw bad(`the audio of track "${missing.name}" is not listed`)
  return {
    format: FORMAT,
    version: 1,
    id: m.id,
    name: m.name,
    createdAt: Number(m.createdAt),
    updatedAt: Number(m.updatedAt),
    state,
    audio,
    ...(typeof m.device === 'string' && /^[\w-]{8,64}$/.test(m.device) ? { device: m.device } : {}),
  }
}

export async function uploadProjectCopy(
  db: SupabaseClient,
  userId: string,
  project: StoredProject,
  readAudio: (id: string) => Promise<StoredAudio | undefined>,
  onProgress?: (fraction: number) => void,
  device: string = thisDevice(),
): Promise<string> {
  const bucket = db.storage.from(STUDIO_AUDIO_BUCKET)
  const base = folder(userId, project.id)
  // Before anything is written: a version from another browser that this one never saw stays.
  // (Not read, or damaged: nothing to keep, and the upload replaces it as before.)
  const previous = await readManifest(db, userId, project.id).catch(() => null)
  if (overwritesUnseenVersion(previous, project, device)) throw new ProjectConflictError(previous!.updatedAt)
  // The row first: the copy is listed against it, and it may not have reached the server yet.
  await upsertStudioProject(db, {
    id: project.id,
    name: project.name,
    trackCount: project.state.tracks.length,
    durationSeconds: mixDuration(project.state),
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  })
  // What an earlier upload (finished or not) or a live session already stored is not sent again.
  const already = new Set(await filesInFolder(db, base))

  const ids = [...new Set(project.state.tracks.map((t) => t.audioId))]
  const audio: ManifestAudio[] = []
  const toSend: StoredAudio[] = []
  for (const id of ids) {
    const a = await readAudio(id)
    if (!a || a.channels.length === 0)
      throw new ProjectCopyError(
        `The audio of track "${project.state.tracks.find((t) => t.audioId === id)?.name ?? id}" is missing from this browser.`,
      )
    audio.push({ id, file: fileFor(id), sampleRate: a.sampleRate, channels: a.channels.length, frames: a.channels[0]!.length })
    if (!already.has(fileFor(id))) toSend.push(a)
  }
  const total = toSend.reduce((n, a) => n + a.channels.length * a.channels[0]!.length, 0) || 1
  let sent = 0
  onProgress?.(0)
  for (const a of toSend) {
    const wav = await encodeWavBuffer(a.channels, a.sampleRate, 'float32')
    const { error } = await bucket.upload(`${base}/${fileFor(a.id)}`, wav, { contentType: 'audio/wav', upsert: true })
    if (error) throw storageFailure('Could not upload the audio', error)
    sent += a.channels.length * a.channels[0]!.length
    onProgress?.((0.98 * sent) / total)
  }
  const manifest: Manifest = {
    format: FORMAT,
    version: 1,
    id: project.id,
    name: project.name,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    state: project.state,
    audio,
    device,
  }
  const body = new TextEncoder().encode(JSON.stringify(manifest))
  // Never cached: the manifest is overwritten by every upload, and a stale one would open an old mix.
  const { error } = await bucket.upload(`${base}/${MANIFEST}`, body.buffer as ArrayBuffer, {
    contentType: 'application/json',
    upsert: true,
    cacheControl: '0',
  })
  if (error) throw storageFailure('Could not upload the project', error)
  // Audio the new version no longer uses.
  const keep = new Set(audio.map((a) => a.file))
  const stale = (previous?.audio ?? []).filter((a) => !keep.has(a.file)).map((a) => `${base}/${a.file}`)
  if (stale.length) await bucket.remove(stale).catch(() => undefined)
  const at = new Date(project.updatedAt).toISOString()
  await markStudioProjectUploaded(db, project.id, at)
  onProgress?.(1)
  return at
}

export async function downloadProjectCopy(
  db: SupabaseClient,
  userId: string,
  projectId: string,
  onProgress?: (fraction: number) => void,
): Promise<{ project: StoredProject; audio: Map<string, StoredAudio> }> {
  const manifest = await readManifest(db, userId, projectId)
  if (!manifest)
    throw new ProjectCopyError('There is no copy of this project in your account yet. Upload it from the browser where it was saved.')
  const bucket = db.storage.from(STUDIO_AUDIO_BUCKET)
  const total = manifest.audio.reduce((n, a) => n + a.channels * a.frames, 0) || 1
  let got = 0
  onProgress?.(0)
  const audio = new Map<string, StoredAudio>()
  for (const a of manifest.audio) {
    const { data, error } = await bucket.download(`${folder(userId, projectId)}/${a.file}`)
    if (error) throw storageFailure('Could not download the audio of this project', error)
    let decoded
    try {
      decoded = await decodeWavFile(await data.arrayBuffer())
    } catch (err) {
      throw new ProjectCopyError(`The project copy in your account is damaged: ${errorMessage(err)}`)
    }
    if (decoded.sampleRate !== a.sampleRate || decoded.channels.length !== a.channels || decoded.channels[0]!.length !== a.frames) {
      throw new ProjectCopyError('The project copy in your account is damaged: an audio file does not match its manifest.')
    }
    audio.set(a.id, { id: a.id, sampleRate: decoded.sampleRate, channels: decoded.channels })
    got += a.channels * a.frames
    onProgress?.(got / total)
  }
  const project: StoredProject = {
    id: manifest.id,
    name: manifest.name,
    createdAt: manifest.createdAt,
    updatedAt: manifest.updatedAt,
    state: manifest.state,
    copyOf: manifest.updatedAt,
  }
  return { project, audio }
}

export async function removeProjectCopy(db: SupabaseClient, userId: string, projectId: string): Promise<void> {
  const base = folder(userId, projectId)
  const bucket = db.storage.from(STUDIO_AUDIO_BUCKET)
  const files = await filesInFolder(db, base)
  if (files.length === 0) return
  // The manifest first: a half-removed copy must not look complete.
  if (files.includes(MANIFEST)) {
    const { error } = await bucket.remove([`${base}/${MANIFEST}`])
    if (error) throw storageFailure('Could not remove the project copy from your account', error)
  }
  // Only this project's folder: another project's copy keeps its own files, even of the same audio.
  const rest = files.filter((f) => f !== MANIFEST).map((f) => `${base}/${f}`)
  for (let i = 0; i < rest.length; i += LIST_PAGE) {
    const { error } = await bucket.remove(rest.slice(i, i + LIST_PAGE))
    if (error) throw storageFailure("Could not remove the project's audio from your account", error)
  }
}

/**
 * Deletes a project from the account: its files first, so their bytes leave the quota even if the
 * row's delete then fails (a lost connection rejects, and the caller tries the whole delete
 * again), then its row. A copy the server refuses to remove does not keep the project listed.
 */
export async function deleteProjectFromAccount(db: SupabaseClient, userId: string, projectId: string): Promise<void> {
  await removeProjectCopy(db, userId, projectId).catch((error: unknown) => {
    if (isTransientSyncError(error)) throw error
    console.warn('project copy not removed', error)
  })
  await deleteStudioProject(db, projectId)
}
