import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { Backend } from '../../domain/session/backend-context.ts'

const local = new Map(SAMPLE_SONGS.map((s) => [s.id, s.title]))

/** Title lookup over the server's catalogue, falling back to the built-in one when it is unreachable. */
export async function songTitleLookup(fetchSongs: Backend['profile']['fetchSongs']): Promise<(songId: string) => string | undefined> {
  try {
    const songs = await fetchSongs()
    return (id) => songs.get(id)?.title ?? local.get(id)
  } catch {
    return (id) => local.get(id)
  }
}
