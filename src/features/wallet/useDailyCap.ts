import { capNote } from '../listen/index.ts'
import { DAILY_LISTEN_CAP, useSessionStore } from '../account/index.ts'

/** Whether today's rewarded listens are used up, for the signed-in user, with the note to show. */
export function useDailyCap(): { capped: boolean; note: string } {
  const listens = useSessionStore((s) => (s.user ? (s.wallet?.listens_today ?? 0) : 0))
  return { capped: listens >= DAILY_LISTEN_CAP, note: capNote(listens, DAILY_LISTEN_CAP) }
}
