/**
 * Publishes a track the user made: its audio (from IndexedDB or a same-origin URL) is encoded to
 * Opus/WebM in a worker at the server's bitrate, checked against the server's limits for a clear
 * message before any upload (the server checks again and decides), uploaded with its cover, and
 * publish_song() makes the public `songs` row. Stages are reported for the dialog.
 */
import type { Song } from '../../lib/catalogue/song.ts'
import { getAudioBlob, isIdbAudioUrl, parseIdbAudioUrl, resolveAudioUrl } from '../../lib/user-audio-store.ts'
import { encodeForPublishing } from '../../engine/publish/publish-encode.ts'
import { publishAudio, type PublishingRules } from '../../backend/publishing.ts'
import { generatedCover } from './generated-cover.ts'
import { checkPublishable, PublishRefused, type PublishForm } from './publish-limits.ts'

export { PublishRefused, type PublishForm } from './publish-limits.ts'

export type PublishStage = 'encoding' | 'uploading'

async function sourceAudio(song: Song): Promise<Blob> {
  if (isIdbAudioUrl(song.audioUrl)) return getAudioBlob(parseIdbAudioUrl(song.audioUrl))
  const resolved = await resolveAudioUrl(song.audioUrl)
  try {
    const response = await fetch(resolved.url)
    if (!response.ok) throw new PublishRefused(`The track's audio could not be read (HTTP ${response.status}).`)
    return await response.blob()
  } finally {
    resolved.release()
  }
}

export async function publishTrack(
  song: Song,
  form: PublishForm,
  ctx: { userId: string; username: string; rules: PublishingRules; attemptKey: string; onStage: (stage: PublishStage) => void },
) {
  const { rules } = ctx
  // Refuse the obvious before the (slower) encoding.
  checkPublishable({ ...form, coverFile: form.coverFile }, rules.min_seconds, 0, rules)
  ctx.onStage('encoding')
  const source = await sourceAudio(song)
  const encoded = await encodeForPublishing(source, rules.bitrate_kbps)
  checkPublishable(form, encoded.seconds, encoded.blob.size, rules)
  const cover = form.coverFile ?? (await generatedCover(form.title.trim(), form.genre, ctx.username))
  ctx.onStage('uploading')
  return publishAudio(
    {
      userId: ctx.userId,
      audio: encoded.blob,
      cover,
      title: form.title.trim(),
      genre: form.genre,
      attemptKey: ctx.attemptKey,
      loudnessLufs: encoded.loudnessLufs,
      truePeakDbtp: encoded.truePeakDbtp,
      remixId: song.remixId,
    },
    rules,
  )
}
