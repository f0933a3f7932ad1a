import type { Queryable } from '../core/db.ts'
import type { AuthOptions } from './context.ts'

/**
 * Makes a user an administrator when their e-mail is in LOCAL_ADMIN_EMAILS, called only once the
 * address is confirmed (its link was followed, or confirmations are off): claiming an address is
 * not owning it, so an unconfirmed sign-up or e-mail change grants nothing.
 */
export async function grantListedAdmin(options: AuthOptions, tx: Queryable, userId: string, email: string): Promise<void> {
  if (!options.adminEmails.has(email)) return
  await tx.query("select set_config('role', 'service_role', true)")
  await tx.query('insert into public.administrators (user_id) values ($1) on conflict do nothing', [userId])
  await tx.query("select set_config('role', 'supabase_auth_admin', true)")
}
