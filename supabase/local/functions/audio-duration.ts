import { parseBuffer } from 'music-metadata'

/**
 * How long the audio in `bytes` lasts, in seconds, as music-metadata reads it (WebM/Matroska, Ogg,
 * MP3, WAV; scanning the file when its header does not say); undefined when it cannot tell. The
 * hosted edge function (supabase/functions/measure-audio/index.ts) parses the same way.
 */
export async function audioDuration(bytes: Uint8Array, mimeType: string): Promise<number | undefined> {
  return (await parseBuffer(bytes, { mimeType: mimeType.split(';')[0], size: bytes.byteLength }, { duration: true })).format.duration
}
