// The profile's rules as the client shows them before asking the server; public.profile_rules()
// (migration 20261124150000_account_settings.sql) enforces the same whatever the client says.

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
export const AVATAR_SIZE_PX = 256
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,30}$/
export const BIO_MAX = 300
export const PASSWORD_MIN = 8

/** Why a username cannot be used, in words for the user; null when it can. */
export function usernameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 30) return 'A username is 3 to 30 characters.'
  if (!USERNAME_PATTERN.test(name)) return 'A username may hold only letters, digits, - and _.'
  return null
}

/** Why a file cannot be an avatar; null when it can. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'An avatar must be a PNG, JPEG or WebP image.'
  if (file.size > AVATAR_MAX_BYTES) return `An avatar can be at most 2 MB; this file is ${(file.size / 1024 / 1024).toFixed(1)} MB.`
  if (file.size === 0) return 'This file is empty.'
  return null
}
