import { sql, type TestServer } from './local-backend.ts'

/**
 * Test setup for the trust rule (supabase/schemas/trust.sql): qualifying listens
 * written to the ledger in the past, `songs` distinct songs spread over `days` distinct UTC days
 * (1 CUBE each, as post_ledger would write them: the wallet's balance moves with them, so
 * balance = sum(ledger) holds), and the account made as old as its first listen (days + 1 days;
 * the rule's minimum age is 48 h). `listenHistory(server, id)` makes an account trusted (3 days,
 * 10 songs) unless it is part of a ring of accounts on one address.
 */
export async function listenHistory(server: TestServer, userId: string, days = 3, songs = 10): Promise<void> {
  const rows = Math.max(days, songs)
  for (let i = 0; i < rows; i++) {
    await sql(
      server,
      'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key, created_at) ' +
        "values ($1::uuid, 1, 'listen', $2, " +
        "'test-listen:' || $1::text || ':' || $3, now() - make_interval(days => $4::int))",
      [userId, `trust-song-${i % songs}`, `${i}:${crypto.randomUUID()}`, (i % days) + 1],
    )
  }
  await sql(server, 'update public.user_tokens set balance = balance + $2 where user_id = $1', [userId, rows])
  await ageAccount(server, userId, days + 1)
}

/** Makes an account `days` days old (never younger than it already is). */
export async function ageAccount(server: TestServer, userId: string, days: number): Promise<void> {
  await sql(server, 'update auth.users set created_at = least(created_at, now() - make_interval(days => $2::int)) where id = $1', [
    userId,
    days,
  ])
}

/** governance_rules().full_power_days: the listening days at which an account's CUBE vote with full weight. */
export const FULL_POWER_DAYS = 30

/**
 * An established listener (supabase/schemas/governance.sql, governance_power): trusted, with
 * listening on FULL_POWER_DAYS past days, so its votable CUBE vote with full weight.
 */
export const establishedListener = (server: TestServer, userId: string) => listenHistory(server, userId, FULL_POWER_DAYS)
