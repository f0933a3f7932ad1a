import { isAuthError, type AuthError } from '@supabase/supabase-js'
import { supabase } from './client.ts'

export type AuthOutcome =
  | { ok: true; signedIn: boolean }
  | { ok: false; kind: 'signup-disabled' | 'error'; message: string | undefined }

// GoTrue reports a disabled e-mail provider as 'email_provider_disabled' ("Email signups are
// disabled") and closed sign-ups as 'signup_disabled'; older servers only send the text.
const SIGNUP_DISABLED_CODES = new Set(['email_provider_disabled', 'signup_disabled'])
const SIGNUP_DISABLED_TEXT = /(email )?sign ?ups? (are )?(disabled|not allowed)/i

export function isSignupDisabled(error: Pick<AuthError, 'message'> & { code?: string }): boolean {
  return (error.code !== undefined && SIGNUP_DISABLED_CODES.has(error.code)) || SIGNUP_DISABLED_TEXT.test(error.message ?? '')
}

/**
 * The server's own words, when the server answered with an error; undefined when it never did
 * (network down, a proxy's 5xx page), so the UI falls back to its generic messages.
 */
export const serverMessage = (error: unknown): string | undefined => {
  if (!isAuthError(error) || error.status === undefined || error.status < 400 || error.status >= 500) return undefined
  const text = error.message?.trim()
  return text && text !== '{}' ? text : undefined
}

export async function signIn(email: string, password: string): Promise<AuthOutcome> {
  try {
    const { data, error } = await supabase().auth.signInWithPassword({ email, password })
    if (error) return { ok: false, kind: 'error', message: serverMessage(error) }
    return { ok: true, signedIn: data.session !== null }
  } catch (error) {
    return { ok: false, kind: 'error', message: serverMessage(error) }
  }
}

export async function signUp(username: string, email: string, password: string): Promise<AuthOutcome> {
  try {
    const { data, error } = await supabase().auth.signUp({
      email,
      password,
      options: { data: { username }, emailRedirectTo: window.location.origin },
    })
    if (error) return { ok: false, kind: isSignupDisabled(error) ? 'signup-disabled' : 'error', message: serverMessage(error) }
    // A hosted project with e-mail confirmation answers without a session until the link is opened.
    return { ok: true, signedIn: data.session !== null }
  } catch (error) {
    return { ok: false, kind: 'error', message: serverMessage(error) }
  }
}

export async function signOut(): Promise<{ ok: boolean; message?: string }> {
  const { error } = await supabase().auth.signOut()
  return error ? { ok: false, message: error.message } : { ok: true }
}
