// The profile's rules as the client shows them before asking the server; public.profile_rules()
// (supabase/schemas/profiles.sql) enforces the same whatever the client says.

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
export const AVATAR_SIZE_PX = 256
// Letters of any alphabet, digits, '.', '-' and '_' (public.profile_rules() lists the same ranges).
const USERNAME_CHARS =
  'A-Za-z0-9._\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u0300-\u036F\u0386-\u03FF\u0400-\u052F\u0531-\u0587' +
  '\u05D0-\u05EA\u0620-\u0669\u066E-\u06D3\u06D5\u06F0-\u06FF\u0900-\u0D7F\u0E01-\u0E3A\u0E40-\u0E4E' +
  '\u10A0-\u10FF\u1100-\u11FF\u1E00-\u1EFF\u1F00-\u1FFF\u3041-\u3096\u30A1-\u30FA\u30FC\u3400-\u4DBF' +
  '\u4E00-\u9FFF\uAC00-\uD7A3-'
// Ranges of code points, not sequences: combining marks (U+0300…, Indic vowel signs) are letters' parts here.
// eslint-disable-next-line no-misleading-character-class
export const USERNAME_PATTERN = new RegExp(`^[${USERNAME_CHARS}]{3,30}$`, 'u')
export const USERNAME_MESSAGE = 'A username is 3 to 30 letters (any alphabet), digits, ".", "-" or "_".'
export const USERNAME_TAKEN_MESSAGE = 'That username is taken. Try another one.'
export const BIO_MAX = 300
export const PASSWORD_MIN = 8
export const PASSWORD_MESSAGE = `A password is at least ${PASSWORD_MIN} characters.`

/** A username as the server stores it: trimmed, in Unicode NFKC (a fullwidth 'ｎｅｏｎ' is 'neon'). */
export const normaliseUsername = (name: string) => name.trim().normalize('NFKC')

// eslint-disable-next-line no-misleading-character-class
const USERNAME_CHAR = new RegExp(`^[${USERNAME_CHARS}]$`, 'u')

/**
 * Why a username cannot be used, in words for the user (the server's words, public.username_rule_problem):
 * the rule, and the first character it does not allow; null when it can be used.
 */
export function usernameProblem(name: string): string | null {
  const n = normaliseUsername(name)
  const length = [...n].length
  if (length < 3 || length > 30) return USERNAME_MESSAGE
  if (USERNAME_PATTERN.test(n)) return null
  const bad = [...n].find((c) => !USERNAME_CHAR.test(c))
  const named = bad === undefined ? 'this name' : /^\s$/u.test(bad) ? 'a space' : `"${bad}"`
  return `${USERNAME_MESSAGE.replace(/\.$/, '')}: ${named} is not allowed.`
}

/** Why a file cannot be an avatar; null when it can. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'An avatar must be a PNG, JPEG or WebP image.'
  if (file.size > AVATAR_MAX_BYTES) return `An avatar can be at most 2 MB; this file is ${(file.size / 1024 / 1024).toFixed(1)} MB.`
  if (file.size === 0) return 'This file is empty.'
  return null
}
