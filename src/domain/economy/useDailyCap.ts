import { dailyCapStatus, useListenRules } from './reward-rules.ts'
import { useSessionStore } from '../session/session-store.ts'

/** Whether today's rewarded listens are used up, for the signed-in user, with the note to show. */
export function useDailyCap(): { capped: boolean; note: string } {
  const listens = useSessionStore((s) => (s.user ? (s.wallet?.listens_today ?? 0) : 0))
  const { capped, note } = dailyCapStatus(listens, useListenRules().daily_cap)
  return { capped, note }
}
