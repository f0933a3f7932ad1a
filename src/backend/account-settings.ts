import { totpQrImageUrl } from './totp-qr.ts'
import type { SupabaseClient } from '@supabase/supabase-js'
import { AVATAR_BUCKET, avatarAddress } from './profile-avatar.ts'

// What Settings changes on the server: the profile's username and bio, the avatar (bucket
// `avatars`, one object `<user id>/avatar`, read through RLS: src/backend/profile-avatar.ts), the
// preferences row (public.user_settings), the password and e-mail (Auth, re-authenticated with the current password) and TOTP two-factor.
// The rules mirror public.profile_rules() (supabase/schemas/profiles.sql), which
// the server enforces whatever the client says. Every call takes the supabase-js client so Node
// tests use it as is; every failure is an Error whose message is meant for the user.

export { AVATAR_BUCKET }
export {
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  AVATAR_SIZE_PX,
  USERNAME_PATTERN,
  BIO_MAX,
  PASSWORD_MIN,
  usernameProblem,
  avatarFileProblem,
} from '../lib/profile-rules.ts'
import {
  BIO_MAX,
  PASSWORD_MIN,
  USERNAME_TAKEN_MESSAGE,
  avatarFileProblem,
  normaliseUsername,
  usernameProblem,
} from '../lib/profile-rules.ts'

export const avatarPath = (userId: string) => `${userId}/avatar`

export interface UserSettings {
  notify_replies: boolean
  notify_followers: boolean
  notify_votes: boolean
  notify_mints: boolean
  public_profile: boolean
  show_activity: boolean
}

export const DEFAULT_SETTINGS: UserSettings = {
  notify_replies: true,
  notify_followers: true,
  notify_votes: true,
  notify_mints: true,
  public_profile: true,
  show_activity: true,
}
const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof UserSettings)[]

interface PgError {
  code?: string
  message?: string
  details?: string | null
}

/** A PostgREST error in the user's words. */
function profileError(error: PgError): Error {
  // The server names the account's name that the new one reads the same as.
  if (error.message === 'username_taken' && error.details) return new Error(error.details)
  if (error.code === '23505') return new Error(USERNAME_TAKEN_MESSAGE)
  if (error.message === 'invalid_username' || error.message === 'bio_too_long') return new Error(error.details ?? error.message)
  return new Error(error.message ?? 'The profile could not be saved.')
}

/** Saves username and bio (the server checks both again). */
export async function saveProfileFields(db: SupabaseClient, userId: string, fields: { username: string; bio: string }): Promise<void> {
  const username = normaliseUsername(fields.username)
  const problem = usernameProblem(username)
  if (problem) throw new Error(problem)
  if (fields.bio.length > BIO_MAX) throw new Error(`A bio is at most ${BIO_MAX} characters.`)
  const { data, error } = await db
    .from('profiles')
    .update({ username, bio: fields.bio.trim() || null })
    .eq('user_id', userId)
    .select('user_id')
  if (error) throw profileError(error)
  if (!data?.length) throw new Error('The profile could not be saved: please sign in again.')
}

/** Uploads the avatar (already resized) and points the profile at it; returns the new address. */
export async function uploadAvatar(db: SupabaseClient, userId: string, file: Blob): Promise<string> {
  const problem = avatarFileProblem(file)
  if (problem) throw new Error(problem)
  const bucket = db.storage.from(AVATAR_BUCKET)
  const { error } = await bucket.upload(avatarPath(userId), file, { upsert: true, contentType: file.type, cacheControl: 'no-cache' })
  if (error) throw new Error(`The avatar could not be uploaded: ${error.message}`)
  // The object's name never changes, so the address carries a version for caches.
  const url = avatarAddress(db, avatarPath(userId), Date.now())
  const saved = await db.from('profiles').update({ avatar_url: url }).eq('user_id', userId)
  if (saved.error) throw profileError(saved.error)
  return url
}

export async function fetchUserSettings(db: SupabaseClient, userId: string): Promise<UserSettings> {
  const { data, error } = await db.from('user_settings').select(SETTING_KEYS.join(', ')).eq('user_id', userId).maybeSingle<UserSettings>()
  if (error) throw new Error(error.message)
  return { ...DEFAULT_SETTINGS, ...(data ?? {}) }
}

export async function saveUserSettings(db: SupabaseClient, userId: string, settings: UserSettings): Promise<void> {
  const row = Object.fromEntries(SETTING_KEYS.map((k) => [k, Boolean(settings[k])]))
  const { error } = await db.from('user_settings').upsert({ user_id: userId, ...row, updated_at: new Date().toISOString() })
  if (error) throw new Error(`The settings could not be saved: ${error.message}`)
}

const AUTH_MESSAGES: Record<string, string> = {
  current_password_required: 'Enter your current password.',
  current_password_mismatch: 'Your current password is not correct.',
  weak_password: `The new password must be at least ${PASSWORD_MIN} characters.`,
  same_password: 'The new password must differ from the current one.',
  email_exists: 'Another account already uses that e-mail address.',
  validation_failed: 'That e-mail address is not valid.',
  insufficient_aal: 'Confirm your two-factor code first (sign in again with your code).',
  mfa_verification_failed: 'That code is not correct. Use the current 6-digit code from your authenticator app.',
  mfa_challenge_expired: 'The code request expired. Try again.',
  over_email_send_rate_limit: 'A confirmation mail was sent just now. Please wait a minute before asking again.',
}

/** An Auth error in the user's words. */
export function authMessage(error: { code?: string; message: string }): string {
  return (error.code && AUTH_MESSAGES[error.code]) || error.message
}

/** Changes the password; the server signs out every other session of the account. */
export async function changePassword(db: SupabaseClient, current: string, next: string): Promise<void> {
  if (next.length < PASSWORD_MIN) throw new Error(AUTH_MESSAGES.weak_password)
  const { error } = await db.auth.updateUser({ password: next, current_password: current })
  if (error) throw new Error(authMessage(error))
}

/**
 * Asks to change the sign-in e-mail. The server mails a confirmation link to the new address (and a
 * notice to the current one); the e-mail changes only once that link is opened.
 */
export async function changeEmail(db: SupabaseClient, current: string, email: string): Promise<void> {
  const { error } = await db.auth.updateUser(
    { email: email.trim(), current_password: current },
    { emailRedirectTo: `${window.location.origin}/app/settings` },
  )
  if (error) throw new Error(authMessage(error))
}

export interface TotpEnrolment {
  factorId: string
  qrCode: string
  secret: string
}

/** Starts TOTP enrolment (an unverified factor, removed again if the user cancels). */
export async function startTotp(db: SupabaseClient): Promise<TotpEnrolment> {
  // Unverified leftovers of an abandoned enrolment go first, so the friendly name stays free.
  const listed = await db.auth.mfa.listFactors()
  for (const factor of listed.data?.all ?? []) {
    if (factor.status === 'unverified') await db.auth.mfa.unenroll({ factorId: factor.id })
  }
  const { data, error } = await db.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator app', issuer: 'CUBE Music' })
  if (error) throw new Error(authMessage(error))
  return { factorId: data.id, qrCode: totpQrImageUrl(data.totp.qr_code), secret: data.totp.secret }
}

/** Proves a code for a factor (enrolment, or the sign-in step up to aal2). */
export async function verifyTotp(db: SupabaseClient, factorId: string, code: string): Promise<void> {
  const { error } = await db.auth.mfa.challengeAndVerify({ factorId, code: code.trim() })
  if (error) throw new Error(authMessage(error))
}

export async function removeTotp(db: SupabaseClient, factorId: string): Promise<void> {
  const { error } = await db.auth.mfa.unenroll({ factorId })
  if (error) throw new Error(authMessage(error))
}

/** The verified TOTP factor of the signed-in user, if any, and whether this session must step up. */
export async function totpStatus(db: SupabaseClient): Promise<{ factorId: string | null; needsCode: boolean }> {
  const [factors, level] = await Promise.all([db.auth.mfa.listFactors(), db.auth.mfa.getAuthenticatorAssuranceLevel()])
  const verified = factors.data?.totp[0]
  return { factorId: verified?.id ?? null, needsCode: level.data?.currentLevel === 'aal1' && level.data.nextLevel === 'aal2' }
}

/**
 * Whether a stored avatar URL may be shown: our own files only (a same-origin path, a picture made
 * in the browser, or an object in our backend's public Storage), never a third-party address.
 */
export function isOwnPictureUrl(url: string | null, backendUrl: string): url is string {
  if (!url) return false
  if (url.startsWith('data:image/')) return true
  if (url.startsWith('/') && !url.startsWith('//')) return true
  return url.startsWith(`${backendUrl.replace(/\/+$/, '')}/storage/v1/object/public/`)
}

export interface NoticeRow {
  id: string
  kind: 'reply' | 'follower' | 'vote_closed' | 'mint_completed'
  title: string
  body: string
  link: string | null
}

/**
 * The user's live notifications (Realtime postgres_changes on public.notifications, which the
 * server fills according to their preferences). Returns the unsubscribe function.
 */
export function subscribeNotices(db: SupabaseClient, userId: string, onNotice: (notice: NoticeRow) => void): () => void {
  const channel = db
    .channel(`notices:${userId}:${Math.random().toString(36).slice(2)}`)
    .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notifications', filter: `user_id=eq.${userId}` }, (p) =>
      onNotice(p.new as NoticeRow),
    )
    .subscribe()
  return () => {
    void db.removeChannel(channel)
  }
}

/** Every bucket where a user keeps files, each under a first folder named by their user id. */
export const USER_BUCKETS = ['avatars', 'profile-banners', 'studio-audio', 'creations', 'published-audio', 'published-covers'] as const

async function listAll(db: SupabaseClient, bucket: string, folder: string): Promise<string[]> {
  const out: string[] = []
  for (let offset = 0; ; offset += 100) {
    const { data, error } = await db.storage.from(bucket).list(folder, { limit: 100, offset })
    if (error) throw new Error(`Your files in ${bucket} could not be listed: ${error.message}`)
    for (const item of data) {
      const path = `${folder}/${item.name}`
      // A folder has no id: descend into it.
      if (item.id) out.push(path)
      else out.push(...(await listAll(db, bucket, path)))
    }
    if (data.length < 100) return out
  }
}

/**
 * Deletes the signed-in account: first the user's files in every bucket (as the user, which
 * Storage's RLS allows), then everything else on the server (delete_my_account, which refuses
 * while files remain or the typed username differs). The session ends with it.
 */
export async function deleteMyAccount(db: SupabaseClient, userId: string, confirmUsername: string): Promise<void> {
  const { data: profile } = await db.from('profiles').select('username').eq('user_id', userId).maybeSingle<{ username: string }>()
  if (!profile || profile.username !== confirmUsername) throw new Error('Type your username exactly to confirm.')
  for (const bucket of USER_BUCKETS) {
    const paths = await listAll(db, bucket, userId)
    for (let i = 0; i < paths.length; i += 100) {
      const { error } = await db.storage.from(bucket).remove(paths.slice(i, i + 100))
      if (error) throw new Error(`Your files in ${bucket} could not be removed: ${error.message}`)
    }
  }
  const { error } = await db.rpc('delete_my_account', { p_confirm_username: confirmUsername })
  if (error) throw new Error((error as { details?: string }).details || error.message)
  await db.auth.signOut({ scope: 'local' })
}
