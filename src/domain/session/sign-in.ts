import {
  hasRecoverySession,
  requestPasswordReset,
  setRecoveredPassword,
  resendConfirmation,
  signIn,
  signInNeedsCode,
  signOut,
  signUp,
  verifySignInCode,
  type AuthOutcome,
} from '../../backend/auth.ts'
import { announceNextWalletInit } from './session-sync.ts'
import { setStepUpInProgress } from './two-factor-gate.ts'

// Signing in, registering and out, in the order session-sync relies on: the wallet's first load is
// announced before the request goes out, and the two-factor step-up is claimed before the password
// is sent, so session-sync does not end the half-signed-in (aal1) session it is about to see.

export type LogInResult =
  | { kind: 'signed-in' }
  | { kind: 'needs-code'; factorId: string }
  | { kind: 'failed'; message?: string; unconfirmed?: boolean }

export async function logIn(email: string, password: string): Promise<LogInResult> {
  announceNextWalletInit()
  setStepUpInProgress(true)
  const result = await signIn(email, password)
  const pending = result.ok ? await signInNeedsCode() : null
  if (pending) return { kind: 'needs-code', factorId: pending }
  setStepUpInProgress(false)
  if (!result.ok) {
    announceNextWalletInit(false)
    return { kind: 'failed', message: result.message, unconfirmed: result.kind === 'unconfirmed' }
  }
  return { kind: 'signed-in' }
}

export async function register(username: string, email: string, password: string): Promise<AuthOutcome> {
  announceNextWalletInit()
  const result = await signUp(username, email, password)
  if (!result.ok) announceNextWalletInit(false)
  return result
}

/** The second sign-in step: the authenticator app's code for the pending factor. */
export const verifyCode = (factorId: string, code: string) => verifySignInCode(factorId, code)

export const logOut = () => signOut()

/** Mails the sign-up confirmation link again. */
export const resendSignupMail = (email: string) => resendConfirmation(email)

/** Whether a password-reset link opened this tab's session (the reset page's form is for it only). */
export const recoveryLinkOpened = () => hasRecoverySession()

/** Sets the new password in the reset link's session. */
export const setNewPassword = (password: string) => setRecoveredPassword(password)

/** Mails a password-reset link ("Forgot password?"). */
export const sendPasswordReset = (email: string) => requestPasswordReset(email)

let pendingEnd: ReturnType<typeof setTimeout> | undefined

/** The code step is on screen: the half-signed-in session stays. */
export function holdStepUp() {
  clearTimeout(pendingEnd)
  setStepUpInProgress(true)
}

/**
 * The code step left the screen: unless the code was verified, the half-signed-in session ends. A
 * tick later, and cancelled by holdStepUp, so StrictMode's unmount-and-mount keeps it.
 */
export function releaseStepUp(verified: () => boolean) {
  pendingEnd = setTimeout(() => {
    setStepUpInProgress(false)
    if (!verified()) void signOut()
  }, 0)
}
