import type { Database } from '../../supabase/local/core/db.ts'

export type GrantOutcome = 'granted' | 'already' | 'no-account' | 'unconfirmed'

/**
 * Makes the account with this e-mail an administrator, from the server side (the operator runs
 * it on the database). Only a confirmed address: an unconfirmed sign-up may be a squatter's.
 */
export async function grantAdmin(db: Database, email: string): Promise<GrantOutcome> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; confirmed: boolean }>(
      'select id, email_confirmed_at is not null as confirmed from auth.users where email = $1',
      [email.trim().toLowerCase()],
    )
    const user = rows[0]
    if (!user) return 'no-account'
    if (!user.confirmed) return 'unconfirmed'
    const added = await tx.query('insert into public.administrators (user_id) values ($1) on conflict do nothing returning user_id', [
      user.id,
    ])
    return added.rows.length ? 'granted' : 'already'
  })
}

export const GRANT_MESSAGES: Record<GrantOutcome, (email: string) => string> = {
  granted: (email) => `${email} is now an administrator (they see it after their next sign-in or page load).`,
  already: (email) => `${email} already is an administrator.`,
  'no-account': (email) => `No account has the e-mail ${email}: sign up with it first.`,
  unconfirmed: (email) => `${email} has not confirmed its e-mail yet: follow the link in the confirmation mail first.`,
}
