import { queryClient } from '../session/query-client.ts'

// The profile slice's query keys: the signed-in account's own profile view (its fields, avatar,
// the playlists and songs it shows), under its account.

export const profileKeys = {
  /** Everything the account's own profile page shows. */
  own: (userId: string) => ['profile', userId] as const,
}

/** The profile's fields or what it lists changed on the server (an edit, a playlist merge). */
export function ownProfileChanged(userId: string | undefined): Promise<void> {
  if (!userId) return Promise.resolve()
  return queryClient.invalidateQueries({ queryKey: profileKeys.own(userId) })
}
