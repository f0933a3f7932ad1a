/**
 * Publishing a creator's track and reading published songs (publish_song in supabase/schemas/catalogue.sql).
 *
 *   fetchPublishingRules()                     the server's limits (publishing_rules(), one source)
 *   publishAudio({ userId, audio, cover, title, genre, attemptKey }, rules)
 *       uploads the encoded audio (and cover) to the public buckets under the user's folder, has the
 *       server measure the stored audio's length (the measure-audio edge function), then
 *       publish_song() with the dialog's attempt key; answers { id, slug }. A repeated attempt gets
 *       the first publication back and removes its own uploads. Refusals throw with the server's message.
 *       The loudness measured before upload (loudnessLufs, truePeakDbtp) is then recorded with
 *       record_song_loudness(); a failure there costs only the song's normalisation, not the publication.
 *       A track rendered from a remix (remixId) then has its source recorded by record_remix_source().
 *   unpublishSong(id)                           unpublish_song(), then removes its Storage objects
 *   fetchSongBySlug(slug) / fetchSongById(id)   a catalogue row with its owner's username, or null
 *   fetchSongsByOwner(userId)                   the user's published songs, newest first
 *   fetchSongLoudness(id)                       { loudness_lufs, true_peak_dbtp } of a song, or null
 *   fetchRemixesOf(id)                          the published remixes of a song, newest first
 *   fetchPublishedSongs()                       every published song this user may see (the server's
 *                                               policy leaves out private creators'), newest first
 */
import { supabase } from './client.ts'
import { functionError } from './function-error.ts'
import { jsonAs } from './rpc.ts'
import type { Tables } from './database.types.ts'

export interface PublishingRules {
  audio_bucket: string
  cover_bucket: string
  audio_types: string[]
  cover_types: string[]
  bitrate_kbps: number
  min_seconds: number
  max_seconds: number
  max_audio_bytes: number
  max_cover_bytes: number
  per_day: number
  title_max: number
  genres: string[]
}

export type CatalogueRow = Pick<
  Tables<'songs'>,
  | 'id'
  | 'title'
  | 'artist'
  | 'duration_seconds'
  | 'reward'
  | 'slug'
  | 'genre'
  | 'owner_id'
  | 'cover_url'
  | 'audio_url'
  | 'created_at'
  | 'loudness_lufs'
  | 'true_peak_dbtp'
  | 'remix_of'
>

// One literal (not a concatenation), so supabase-js types the selected columns.
export const SONG_COLUMNS = `id, title, artist, duration_seconds, reward, slug, genre, owner_id, cover_url, audio_url, created_at,
  loudness_lufs, true_peak_dbtp, remix_of`

export async function fetchPublishingRules(): Promise<PublishingRules> {
  const { data, error } = await supabase().rpc('publishing_rules')
  if (error) throw error
  return jsonAs<PublishingRules>(data)
}

export interface PublishInput {
  userId: string
  audio: Blob
  cover: Blob | null
  title: string
  genre: string
  /** One per publish dialog (publish-attempt.ts): the server publishes each attempt once. */
  attemptKey: string
  /** Measured on the audio before upload (src/engine/publish/publish-encode.ts); null = silence. */
  loudnessLufs?: number | null
  truePeakDbtp?: number | null
  /** The server's remix (public.remixes.id) the track was rendered from, if it is one. */
  remixId?: string
}

const extension = (type: string) =>
  ({ 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' })[
    type.split(';')[0]!
  ] ?? 'bin'

export async function publishAudio(input: PublishInput, rules: PublishingRules): Promise<{ id: string; slug: string }> {
  const storage = supabase().storage
  const name = crypto.randomUUID()
  const audioPath = `${input.userId}/${name}.${extension(input.audio.type)}`
  const uploaded: { bucket: string; path: string }[] = []
  try {
    const audio = await storage
      .from(rules.audio_bucket)
      .upload(audioPath, input.audio, { contentType: input.audio.type.split(';')[0], cacheControl: '31536000' })
    if (audio.error) throw audio.error
    uploaded.push({ bucket: rules.audio_bucket, path: audioPath })
    let coverPath: string | null = null
    if (input.cover) {
      coverPath = `${input.userId}/${name}.${extension(input.cover.type)}`
      const cover = await storage
        .from(rules.cover_bucket)
        .upload(coverPath, input.cover, { contentType: input.cover.type, cacheControl: '31536000' })
      if (cover.error) throw cover.error
      uploaded.push({ bucket: rules.cover_bucket, path: coverPath })
    }
    // The server reads the stored file's length itself; publish_song takes that one, never ours.
    const measured = await supabase().functions.invoke<{ duration_seconds: number }>('measure-audio', { body: { path: audioPath } })
    if (measured.error) throw await functionError(measured.error)
    const { data, error } = await supabase().rpc('publish_song', {
      p_title: input.title,
      p_genre: input.genre,
      p_audio_path: audioPath,
      p_cover_path: coverPath ?? undefined,
      p_attempt_key: input.attemptKey,
    })
    if (error) throw error
    const published = jsonAs<{ id: string; slug: string; repeated: boolean }>(data)
    // This attempt was already published with the objects of an earlier try: ours are spare.
    if (published.repeated) await removeAll(uploaded)
    await recordLoudness(published.id, input)
    if (input.remixId) await recordRemixSource(published.id, input.remixId)
    return { id: published.id, slug: published.slug }
  } catch (error) {
    // A refused publication leaves nothing behind in the public buckets.
    await removeAll(uploaded)
    throw error
  }
}

async function recordLoudness(songId: string, input: PublishInput): Promise<void> {
  if (input.loudnessLufs == null || input.truePeakDbtp == null) return
  const { error } = await supabase().rpc('record_song_loudness', {
    p_song_id: songId,
    p_loudness_lufs: input.loudnessLufs,
    p_true_peak_dbtp: input.truePeakDbtp,
  })
  // The song is published; without a stored loudness it simply plays without normalisation.
  if (error) console.warn('[publish] the loudness was not recorded:', error.message)
}

async function recordRemixSource(songId: string, remixId: string): Promise<void> {
  const { error } = await supabase().rpc('record_remix_source', { p_song_id: songId, p_remix_id: remixId })
  // The song is published; without the link its page simply names no source.
  if (error) console.warn('[publish] the remix source was not recorded:', error.message)
}

async function removeAll(objects: { bucket: string; path: string }[]): Promise<void> {
  for (const o of objects)
    await supabase()
      .storage.from(o.bucket)
      .remove([o.path])
      .catch(() => undefined)
}

export async function unpublishSong(id: string, rules: Pick<PublishingRules, 'audio_bucket' | 'cover_bucket'>): Promise<void> {
  const { data, error } = await supabase().rpc('unpublish_song', { p_song_id: id })
  if (error) throw error
  const paths = data as { audio_path: string | null; cover_path: string | null }
  const storage = supabase().storage
  if (paths.audio_path) {
    const removed = await storage.from(rules.audio_bucket).remove([paths.audio_path])
    if (removed.error) throw removed.error
  }
  if (paths.cover_path) await storage.from(rules.cover_bucket).remove([paths.cover_path])
}

async function oneSong(column: 'slug' | 'id', value: string): Promise<CatalogueRow | null> {
  const { data, error } = await supabase().from('songs').select(SONG_COLUMNS).eq(column, value).maybeSingle<CatalogueRow>()
  if (error) throw error
  return data
}

export const fetchSongBySlug = (slug: string) => oneSong('slug', slug)
export const fetchSongById = (id: string) => oneSong('id', id)

export async function fetchSongsByOwner(userId: string): Promise<CatalogueRow[]> {
  const { data, error } = await supabase()
    .from('songs')
    .select(SONG_COLUMNS)
    .eq('owner_id', userId)
    .order('created_at', { ascending: false })
  if (error) throw error
  return (data ?? []) as CatalogueRow[]
}

/** A song's stored loudness, for a song that reached the player without it (a recommendation, a playlist entry). */
export async function fetchSongLoudness(id: string): Promise<Pick<CatalogueRow, 'loudness_lufs' | 'true_peak_dbtp'> | null> {
  const { data, error } = await supabase().from('songs').select('loudness_lufs, true_peak_dbtp').eq('id', id).maybeSingle()
  if (error) throw error
  return data
}

/** The published remixes of a song (songs whose remix_of names it), newest first. */
export async function fetchRemixesOf(id: string): Promise<CatalogueRow[]> {
  const { data, error } = await supabase()
    .from('songs')
    .select(SONG_COLUMNS)
    .eq('remix_of', id)
    .order('created_at', { ascending: false })
    .limit(100)
  if (error) throw error
  return (data ?? []) as CatalogueRow[]
}

/** How many published songs the Library's index loads at most (newest first). */
export const PUBLISHED_SONGS_LIMIT = 1000

export async function fetchPublishedSongs(): Promise<CatalogueRow[]> {
  const { data, error } = await supabase()
    .from('songs')
    .select(SONG_COLUMNS)
    .not('owner_id', 'is', null)
    .order('created_at', { ascending: false })
    .limit(PUBLISHED_SONGS_LIMIT)
  if (error) throw error
  return (data ?? []) as CatalogueRow[]
}
