import { lockedExplanation, trustSteps, type TrustStatus } from '../../domain/economy/trust.ts'

/**
 * The locked part of the balance and what unlocks it, in plain words, with each part of the trust
 * rule and the account's progress on it (supabase/schemas/trust.sql). Nothing once
 * the account is trusted.
 */
export function LockedBalanceNote({ status }: { status: TrustStatus | null }) {
  const text = status ? lockedExplanation(status) : null
  if (!status || !text) return null
  return (
    <div className="rounded-md border border-accent/50 bg-accent/10 px-3 py-2 text-sm text-fg" data-testid="wallet-locked">
      <p>{text}</p>
      <ul className="mt-1 text-xs text-muted" data-testid="trust-steps">
        {trustSteps(status).map((step) => (
          <li key={step.label} data-done={step.done}>
            {step.done ? '✓' : '○'} {step.label}: {step.progress}
          </li>
        ))}
      </ul>
    </div>
  )
}
