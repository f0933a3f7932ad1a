import { useEffect, useState } from 'react'
import { fetchProfileByUsername, fetchProfileName, fetchRecentListens, type RecentListen } from '../../backend/follows.ts'
import type { ProfileRow } from '../../backend/profile.ts'
import { fetchSongsByOwner, type CatalogueRow } from '../../backend/publishing.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useBackend } from '../../domain/session/backend-context.ts'

// The /user/{username} page's data: the profile as the server shows it to this viewer, and Follow.

export interface ProfileView {
  profile: ProfileRow
  songs: CatalogueRow[]
  recent: RecentListen[]
}

export type LoadedProfile = ProfileView | { private: { user_id: string; username: string } }

/** The profile, its published tracks and recent listens; only the name when it is private; null when there is none. */
export async function loadProfile(username: string): Promise<LoadedProfile | null> {
  const profile = await fetchProfileByUsername(username)
  if (!profile) {
    // RLS hides a private profile; the name alone is public.
    const name = await fetchProfileName(username)
    return name?.private ? { private: { user_id: name.user_id, username: name.username } } : null
  }
  const [songs, recent] = await Promise.all([fetchSongsByOwner(profile.user_id), fetchRecentListens(profile.user_id)])
  return { profile, songs, recent }
}

/** Follower counts and whether the viewer follows this profile, with the Follow/Unfollow action. */
export function useFollow(profile: { user_id: string; username: string }) {
  const api = useBackend().follows
  const me = useSessionStore((s) => s.user)
  const [counts, setCounts] = useState<{ followers: number; following: number } | null>(null)
  const [following, setFollowing] = useState<boolean | null>(null)
  const [busy, setBusy] = useState(false)
  const self = me?.id === profile.user_id

  useEffect(() => {
    let live = true
    api.fetchFollowCounts(profile.user_id).then(
      (c) => live && setCounts(c),
      (e: unknown) => notify.error(`Follower counts could not be loaded: ${errorMessage(e)}`),
    )
    if (me && !self)
      api.isFollowing(me.id, profile.user_id).then(
        (f) => live && setFollowing(f),
        () => undefined,
      )
    return () => {
      live = false
    }
  }, [profile.user_id, me, self, api])

  const toggle = async () => {
    if (!me) {
      notify(`Sign in to follow ${profile.username}.`)
      useAuthModalStore.getState().open('login')
      return
    }
    setBusy(true)
    try {
      if (following) await api.unfollow(me.id, profile.user_id)
      else await api.follow(me.id, profile.user_id)
      setFollowing(!following)
      setCounts(await api.fetchFollowCounts(profile.user_id))
    } catch (error) {
      notify.error(`Could not ${following ? 'unfollow' : 'follow'}: ${errorMessage(error)}`)
    } finally {
      setBusy(false)
    }
  }

  return { me, self, counts, following, busy, toggle }
}
