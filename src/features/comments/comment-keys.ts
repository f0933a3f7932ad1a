import { queryClient } from '../../domain/session/query-client.ts'

// The comments feature's query keys: the account's own comments and its figures.

export const commentKeys = {
  mine: (userId: string) => ['comments', userId] as const,
  stats: (userId: string) => ['comments', userId, 'stats'] as const,
  list: (userId: string) => ['comments', userId, 'list'] as const,
}

/** The account posted, deleted or was credited for a comment: its comment views read again. */
export function myCommentsChanged(userId: string | undefined): Promise<void> {
  if (!userId) return Promise.resolve()
  return queryClient.invalidateQueries({ queryKey: commentKeys.mine(userId) })
}
