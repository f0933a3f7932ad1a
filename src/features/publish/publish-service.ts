/**
 * The publish feature's calls: load the rules and the user's published songs into the store,
 * publish a track, unpublish a song. Errors are thrown to the caller (the dialog shows them).
 */
import { fetchPublishingRules, fetchSongsByOwner, unpublishSong, type PublishingRules } from '../../backend/publishing.ts'
import { fetchProfile } from '../../backend/profile.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { usePublishedStore } from './published-store.ts'
import { publishTrack, type PublishForm, type PublishStage } from './publish-track.ts'

export async function loadRules(): Promise<PublishingRules> {
  const known = usePublishedStore.getState().rules
  if (known) return known
  const rules = await fetchPublishingRules()
  usePublishedStore.getState().set({ rules })
  return rules
}

export async function loadMyPublished(userId: string | null): Promise<void> {
  const store = usePublishedStore.getState()
  if (!userId) return store.set({ mine: [], ownerId: null, status: 'idle' })
  store.set({ status: 'loading', ...(store.ownerId !== userId ? { mine: [], ownerId: userId } : {}) })
  try {
    const mine = await fetchSongsByOwner(userId)
    if (usePublishedStore.getState().ownerId === userId) usePublishedStore.getState().set({ mine, status: 'ready' })
  } catch (error) {
    usePublishedStore.getState().set({ status: 'error' })
    throw error
  }
}

/** attemptKey: the dialog's (publish-attempt.ts); every try of one dialog sends the same. */
export async function publish(song: Song, form: PublishForm, userId: string, attemptKey: string, onStage: (stage: PublishStage) => void) {
  const [rules, profile] = await Promise.all([loadRules(), fetchProfile(userId)])
  const result = await publishTrack(song, form, { userId, username: profile?.username ?? 'creator', rules, attemptKey, onStage })
  await loadMyPublished(userId).catch(() => undefined)
  return result
}

export async function unpublish(id: string, userId: string): Promise<void> {
  const rules = await loadRules()
  await unpublishSong(id, rules)
  await loadMyPublished(userId).catch(() => undefined)
}
