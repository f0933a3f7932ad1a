// auth.users rows and the user object GoTrue answers with.

export interface UserRow {
  id: string
  email: string
  encrypted_password: string
  raw_user_meta_data: Record<string, unknown> | string | null
  raw_app_meta_data: Record<string, unknown> | string | null
  email_confirmed_at: string | null
  last_sign_in_at: string | null
  created_at: string
  updated_at: string
  confirmation_sent_at: string | null
  recovery_sent_at: string | null
  /** A pending new e-mail, waiting for its confirmation. */
  email_change: string | null
  email_change_sent_at: string | null
  /** The user's MFA factors as JSON text (never their secrets). */
  factors: string | null
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** The role and claims the auth service's own transactions run with. */
export const AUTH_ADMIN = { role: 'supabase_auth_admin' }
export const USER_COLUMNS =
  `id, email, encrypted_password, raw_user_meta_data::text as raw_user_meta_data, ` +
  `raw_app_meta_data::text as raw_app_meta_data,
  to_json(email_confirmed_at) #>> '{}' as email_confirmed_at, to_json(last_sign_in_at) #>> '{}' as last_sign_in_at,
  to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at,
  to_json(confirmation_sent_at) #>> '{}' as confirmation_sent_at, to_json(recovery_sent_at) #>> '{}' as recovery_sent_at,
  email_change, to_json(email_change_sent_at) #>> '{}' as email_change_sent_at,
  (select json_agg(json_build_object('id', f.id, 'friendly_name', f.friendly_name, 'factor_type', f.factor_type, ` +
  `'status', f.status,
                                     'created_at', f.created_at, 'updated_at', f.updated_at) order by f.created_at)
     from auth.mfa_factors f where f.user_id = users.id)::text as factors`

export const parseMeta = (value: UserRow['raw_user_meta_data']): Record<string, unknown> =>
  typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : (value ?? {})

/** GoTrue's user object, as auth-js expects it. */
export function userJson(row: UserRow) {
  return {
    id: row.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: row.email,
    email_confirmed_at: row.email_confirmed_at,
    phone: '',
    confirmed_at: row.email_confirmed_at,
    last_sign_in_at: row.last_sign_in_at,
    // GoTrue leaves these out while they are empty.
    ...(row.confirmation_sent_at ? { confirmation_sent_at: row.confirmation_sent_at } : {}),
    ...(row.recovery_sent_at ? { recovery_sent_at: row.recovery_sent_at } : {}),
    ...(row.email_change ? { new_email: row.email_change, email_change_sent_at: row.email_change_sent_at } : {}),
    app_metadata: parseMeta(row.raw_app_meta_data),
    user_metadata: parseMeta(row.raw_user_meta_data),
    identities: [],
    // GoTrue lists factors only when there are some; auth-js treats a missing list as none.
    ...(row.factors ? { factors: JSON.parse(row.factors) as unknown[] } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    is_anonymous: false,
  }
}
