import { recordView } from '../../backend/sharing.ts'
import { usePlayerStore } from '../playback/player-store.ts'

// Track plays and profile visits feed the creators' Analytics (share_analytics). The server
// deduplicates per viewer per UTC day; a visitor is a random id kept in this browser.

const VISITOR_KEY = 'cube-visitor-id'

export function visitorId(): string {
  try {
    let id = localStorage.getItem(VISITOR_KEY)
    if (!id || !/^[A-Za-z0-9-]{8,64}$/.test(id)) {
      id = crypto.randomUUID()
      localStorage.setItem(VISITOR_KEY, id)
    }
    return id
  } catch {
    return crypto.randomUUID()
  }
}

/** Catalogue songs only: the user's own recordings ('idb:…') and recipes are not on the server. */
const isCatalogueId = (id: string) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)

/** For the public profile page (/user/{username}): one visit per viewer per day. */
export function recordProfileVisit(username: string): void {
  recordView('profile', username, visitorId()).catch((e: unknown) => console.warn('[share] profile visit', e))
}

/** Records a play each time a new play of a catalogue song starts. */
export function startPlayRecorder(record: (songId: string) => Promise<void> = (id) => recordView('play', id, visitorId())): () => void {
  let lastPlay: number | null = null
  return usePlayerStore.subscribe((s) => {
    if (!s.isPlaying || !s.currentSong || s.playId === lastPlay) return
    lastPlay = s.playId
    if (isCatalogueId(s.currentSong.id)) record(s.currentSong.id).catch((e: unknown) => console.warn('[share] play', e))
  })
}
