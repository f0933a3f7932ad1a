import { lockedExplanation, type TrustStatus } from '../../domain/economy/trust.ts'

/**
 * The locked part of the balance and what unlocks it, in plain words (the trust rule,
 * supabase/schemas/trust.sql). Nothing once the account is trusted.
 */
export function LockedBalanceNote({ status }: { status: TrustStatus | null }) {
  const text = status ? lockedExplanation(status) : null
  if (!status || !text) return null
  return (
    <div className="rounded-md border border-accent/50 bg-accent/10 px-3 py-2 text-sm text-fg" data-testid="wallet-locked">
      <p>{text}</p>
      <p className="mt-1 text-xs text-muted">
        Days listened: {Math.min(status.listening_days, status.needed_days)}/{status.needed_days} · Different songs:{' '}
        {Math.min(status.distinct_songs, status.needed_songs)}/{status.needed_songs}
      </p>
    </div>
  )
}
