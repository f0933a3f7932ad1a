import type { TrustStatus } from '../../backend/trust.ts'

export type { TrustStatus } from '../../backend/trust.ts'

/**
 * The trust rule in plain words, where it bites (supabase/schemas/trust.sql): what is locked and
 * what unlocks it, with the account's progress. Null once nothing is locked and the account is trusted.
 */
export function lockedExplanation(s: TrustStatus): string | null {
  if (s.trusted) return null
  const progress =
    `listen on ${s.needed_days} different days (${Math.min(s.listening_days, s.needed_days)}/${s.needed_days}) ` +
    `and to ${s.needed_songs} different songs (${Math.min(s.distinct_songs, s.needed_songs)}/${s.needed_songs})`
  return s.locked > 0
    ? `${s.locked} CUBE locked: your welcome bonus can be spent in the app, but to use it for voting and claiming, ${progress}.`
    : `To claim rewards and vote with welcome tokens, ${progress}.`
}

/** Why a claim is not possible yet, in words (null when the account may claim). */
export function claimLockedReason(s: TrustStatus | null): string | null {
  if (!s || s.trusted) return null
  return (
    `Claiming unlocks once you have listened on ${s.needed_days} different days (${s.listening_days} so far) ` +
    `and to ${s.needed_songs} different songs (${s.distinct_songs} so far).`
  )
}
