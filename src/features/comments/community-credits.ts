import type { Credit } from '../../backend/comments.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { ledgerChanged } from '../../domain/economy/ledger-cache.ts'
import { myCommentsChanged } from './comment-keys.ts'

const LABELS: Record<string, string> = {
  comment: 'Comment reward',
  like: 'Like reward',
  reply: 'Reply reward',
  comment_goal: 'Daily goal bonus',
}

/** Shows what the server credited (nothing when it credited nothing) and takes its balance. */
export function announceCredits(credited: readonly Credit[], balance: number | undefined): void {
  const session = useSessionStore.getState()
  if (typeof balance === 'number' && session.wallet) session.setWallet({ ...session.wallet, balance })
  if (credited.length === 0) return
  const total = credited.reduce((sum, c) => sum + c.amount, 0)
  notify.success(`+${total} CUBE`, { description: credited.map((c) => `${LABELS[c.reason] ?? c.reason} +${c.amount}`).join(' · ') })
  // Likes credit without changing a comment: the ledger and the comment figures read again.
  void ledgerChanged(session.user?.id)
  void myCommentsChanged(session.user?.id)
}
