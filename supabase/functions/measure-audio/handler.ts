// measure-audio: the server reads how long a track to be published really is, from the stored file.
// What the server pays for (a listen counts after a share of the track's length) must not rest on a
// number the publisher sends. POST { path } (the caller's own object in the publishing audio
// bucket): the file is read with the service role, parsed (WebM, Ogg, MP3 or WAV: the parser is
// injected, music-metadata on both runtimes), and the length is recorded by
// public.record_audio_duration(), which only the service role may call; publish_song() then takes
// that length and no other. Answers 200 { duration_seconds }; 401 without a signed-in user; 400
// for a path outside the caller's folder; 404 when no such file was uploaded; 422 with the reason
// in words when the file is not audio whose length can be read.
import { json, type EdgeHandler } from '../_shared/http.ts'
import type { ServiceClient } from '../_shared/service-client.ts'
import { signedInPost } from '../_shared/signed-in.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

/** A stored object's bytes and its stored content type. */
export interface StoredAudio {
  bytes: Uint8Array
  mimeType: string
}

export interface MeasureAudioDeps {
  clientFor: UserClientFactory
  service: ServiceClient
  /** The object's bytes as the service role reads them; null when there is none. */
  readObject(bucket: string, path: string): Promise<StoredAudio | null>
  /** The length in seconds of the audio in `bytes`, or undefined when it cannot be told; may throw on a broken file. */
  durationOf(bytes: Uint8Array, mimeType: string): Promise<number | undefined>
}

export const NOT_AUDIO =
  'The file could not be read as WebM, Ogg, MP3 or WAV audio, so the server cannot tell how long it is; ' +
  'export it again and publish that file.'

const SAFE_PATH = /^[0-9a-f-]{36}\/[A-Za-z0-9._-]{1,200}$/

export function measureAudio(deps: MeasureAudioDeps): EdgeHandler {
  return async (req) => {
    const caller = await signedInPost(req, deps.clientFor)
    if (caller instanceof Response) return caller
    let path: unknown
    try {
      path = ((await req.json()) as { path?: unknown } | null)?.path
    } catch {
      return json({ error: 'Send JSON: { "path": "<your user id>/<file name>" }' }, 400)
    }
    if (typeof path !== 'string' || !SAFE_PATH.test(path) || path.split('/')[0] !== caller.userId || path.includes('..'))
      return json({ error: 'path: a file in your own folder of the publishing bucket ("<your user id>/<file name>")' }, 400)

    const rules = await deps.service.rpc('publishing_rules')
    const bucket = (rules.data as { audio_bucket?: string } | null)?.audio_bucket
    if (rules.error || !bucket) return json({ error: 'The publishing rules could not be read; try again.' }, 503)

    const file = await deps.readObject(bucket, path)
    if (!file) return json({ error: `Upload the audio to your own folder of ${bucket} first.` }, 404)
    let seconds: number | undefined
    try {
      seconds = await deps.durationOf(file.bytes, file.mimeType)
    } catch {
      seconds = undefined
    }
    if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return json({ error: NOT_AUDIO }, 422)

    const recorded = await deps.service.rpc('record_audio_duration', {
      p_path: path,
      p_size: file.bytes.byteLength,
      p_seconds: Math.round(seconds * 1000) / 1000,
    })
    if (recorded.error) return json({ error: recorded.error.message, code: recorded.error.code }, 400)
    return json(recorded.data)
  }
}
