import type { SupabaseClient } from '@supabase/supabase-js'

// A shared project's audio in Storage: bucket 'studio-audio', each file in its uploader's folder
// '<uploader>/<projectId>/<file>' (the names the owner's project copy uses too). Members of the
// project read it (policy "studio audio: project members read"); project_audio_path finds which
// uploader's folder holds a file.

const BUCKET = 'studio-audio'

/** The file an audio id is stored as (the same as in a project copy). */
export const projectAudioFile = (audioId: string): string => `${audioId.replace(/[^\w.-]/g, '_')}.wav`

/** Where the project's audio is stored, or null when nobody has uploaded it (or the caller is no member). */
export async function projectAudioPath(db: SupabaseClient, projectId: string, audioId: string): Promise<string | null> {
  const { data, error } = await db.rpc('project_audio_path', { p_project: projectId, p_file: projectAudioFile(audioId) })
  if (error) throw new Error(`Could not look up the project's audio: ${error.message}`)
  return (data as string | null) ?? null
}

/** Stores audio of the project in the caller's folder; audio already there is left as it is. */
export async function uploadProjectAudio(db: SupabaseClient, userId: string, projectId: string, audioId: string, wav: ArrayBuffer) {
  const { error } = await db.storage
    .from(BUCKET)
    .upload(`${userId}/${projectId}/${projectAudioFile(audioId)}`, wav, { contentType: 'audio/wav', upsert: false })
  // An audio id's audio never changes: a file already there is the same audio.
  if (error && !/exists|duplicate/i.test(error.message)) throw new Error(`Could not share the audio: ${error.message}`)
}

export async function downloadProjectAudio(db: SupabaseClient, path: string): Promise<ArrayBuffer> {
  const { data, error } = await db.storage.from(BUCKET).download(path)
  if (error) throw new Error(`Could not fetch the project's audio: ${error.message}`)
  return data.arrayBuffer()
}
