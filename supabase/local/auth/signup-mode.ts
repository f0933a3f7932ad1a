import type { Database } from '../core/db.ts'

/**
 * Tells SQL whether this server's sign-ups confirm e-mail (public.signup_confirms_email(), read by
 * public.signup_email_problem()), at every start, since LOCAL_EMAIL_CONFIRM may differ from the
 * last run on the same data folder. The database default reaches every later connection (a
 * PostgreSQL pool's); PGlite's one session is set at once as well.
 */
export async function publishSignupMode(db: Database, confirmsEmail: boolean): Promise<void> {
  const value = confirmsEmail ? 'on' : 'off'
  await db.exec(
    `do $$ begin execute format('alter database %I set app.signup_confirms_email = %L', current_database(), '${value}'); end $$`,
  )
  await db.query("select set_config('app.signup_confirms_email', $1, false)", [value])
}
