import type { TrustStatus } from '../../backend/trust.ts'

export type { TrustStatus } from '../../backend/trust.ts'

/** One line per part of the trust rule, with the account's progress (public.trust_status). */
export interface TrustStep {
  label: string
  done: boolean
  progress: string
}

export function trustSteps(s: TrustStatus): TrustStep[] {
  return [
    {
      label: 'Account age',
      done: s.age_hours >= s.needed_age_hours,
      progress: `${Math.min(s.age_hours, s.needed_age_hours)}/${s.needed_age_hours} hours`,
    },
    {
      label: 'Days listened',
      done: s.listening_days >= s.needed_days,
      progress: `${Math.min(s.listening_days, s.needed_days)}/${s.needed_days}`,
    },
    {
      label: 'Different songs',
      done: s.distinct_songs >= s.needed_songs,
      progress: `${Math.min(s.distinct_songs, s.needed_songs)}/${s.needed_songs}`,
    },
    {
      label: 'New accounts on your address',
      done: s.ring_accounts < s.ring_size,
      progress: `${s.ring_accounts} (fewer than ${s.ring_size})`,
    },
  ]
}

/** What is still missing, in words, as the server says it (public.trust_missing). */
function missing(s: TrustStatus): string {
  const parts: string[] = []
  if (s.age_hours < s.needed_age_hours) parts.push(`your account must be ${s.needed_age_hours} hours old (it is ${s.age_hours})`)
  if (s.listening_days < s.needed_days || s.distinct_songs < s.needed_songs)
    parts.push(
      `listen on ${s.needed_days} different days (${Math.min(s.listening_days, s.needed_days)}/${s.needed_days}) ` +
        `and to ${s.needed_songs} different songs (${Math.min(s.distinct_songs, s.needed_songs)}/${s.needed_songs})`,
    )
  if (s.ring_accounts >= s.ring_size)
    parts.push(`at most ${s.ring_size - 1} new accounts may be used from one address (${s.ring_accounts} were from one of yours)`)
  return parts.join('; ')
}

/**
 * The trust rule in plain words, where it bites: what is locked (the whole balance until the
 * account is trusted) and what unlocks it, with the account's progress. Null once trusted.
 */
export function lockedExplanation(s: TrustStatus): string | null {
  if (s.trusted) return null
  const unlock = `To unlock it: ${missing(s)}.`
  return s.locked > 0
    ? `${s.locked} CUBE locked: you can spend it in the app (remixes, mints, proposals), ` +
        `but it votes, can be delegated and can be claimed only once your account is trusted. ${unlock}`
    : `What you earn votes, can be delegated and can be claimed once your account is trusted. ${unlock}`
}

/** Why a claim is not possible yet, in words (null when the account may claim). */
export function claimLockedReason(s: TrustStatus | null): string | null {
  if (!s || s.trusted) return null
  const text = missing(s)
  return `Claiming unlocks once your account is trusted: ${text}.`
}
