import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import { notify } from '../../lib/notify.ts'
import { normaliseUsername, PASSWORD_MESSAGE, PASSWORD_MIN, usernameProblem } from '../../lib/profile-rules.ts'
import { Icon } from '../../ui/Icon.tsx'
import {
  holdStepUp,
  logIn,
  register,
  releaseStepUp,
  resendSignupMail,
  sendPasswordReset,
  verifyCode,
} from '../../domain/session/sign-in.ts'
import { AUTH_MESSAGES as M } from './auth-messages.ts'
import { useDialogFocus } from '../../ui/useDialogFocus.ts'

import type { AuthTab } from '../../domain/session/auth-modal-store.ts'

const TABS: { key: AuthTab; label: string }[] = [
  { key: 'login', label: 'Log In' },
  { key: 'register', label: 'Register' },
]

const inputClass =
  'w-full rounded-md border border-line bg-bg px-3 py-2 text-fg placeholder:text-muted focus:border-primary focus:outline-none'

function Field({
  label,
  hint,
  inputRef,
  ...props
}: { label: string; hint?: string | null; inputRef?: React.Ref<HTMLInputElement> } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId()
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm text-fg/90">
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        required
        className={inputClass}
        aria-invalid={hint ? true : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...props}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-amber-300" data-testid="field-hint">
          {hint}
        </p>
      )}
    </div>
  )
}

function InlineError({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <p role="alert" data-testid="auth-error" className="rounded-md border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm text-red-400">
      {message}
    </p>
  )
}

/** The second sign-in step when two-factor authentication is on: the authenticator app's code. */
function CodeForm({ factorId, onDone }: { factorId: string; onDone: () => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const finished = useRef(false)
  useEffect(() => {
    holdStepUp()
    // Closed without the code: the half-signed-in session ends.
    return () => releaseStepUp(() => finished.current)
  }, [])
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const code = String(new FormData(e.currentTarget).get('code'))
    setBusy(true)
    setError(null)
    const result = await verifyCode(factorId, code)
    setBusy(false)
    if (!result.ok) return setError(result.message)
    finished.current = true
    notify.success(M.loginSuccess, { description: M.loginSuccessDescription })
    onDone()
  }
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Two-factor code">
      <p className="text-sm text-fg/90">Two-factor authentication is on. Enter the 6-digit code from your authenticator app.</p>
      <Field
        label="Code"
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        data-autofocus
      />
      <InlineError message={error} />
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-md bg-primary px-3 py-2 font-semibold text-bg hover:opacity-90 disabled:opacity-60"
      >
        {busy ? 'Verifying…' : 'Verify'}
      </button>
    </form>
  )
}

/** Sends the sign-up confirmation mail again, and says how that went. */
function ResendButton({ email }: { email: string }) {
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)
  const resend = async () => {
    setBusy(true)
    const result = await resendSignupMail(email)
    setBusy(false)
    setStatus(result.ok ? { ok: true, text: M.confirmationResent(email) } : { ok: false, text: result.message })
  }
  return (
    <div className="space-y-2">
      <button
        type="button"
        onClick={resend}
        disabled={busy}
        className="w-full rounded-md border border-line px-3 py-2 text-sm font-semibold text-fg hover:border-primary disabled:opacity-60"
      >
        {busy ? 'Sending…' : 'Resend confirmation mail'}
      </button>
      {status && (
        <p role="status" data-testid="resend-status" className={`text-sm ${status.ok ? 'text-fg/90' : 'text-amber-300'}`}>
          {status.text}
        </p>
      )}
    </div>
  )
}

/** After registering while confirmations are on: the account waits for its mailed link. */
function CheckMail({ email }: { email: string }) {
  return (
    <div className="space-y-3" data-testid="check-mail">
      <p className="font-semibold text-fg">{M.checkMailTitle}</p>
      <p className="text-sm text-fg/90">{M.checkMailBody(email)}</p>
      <ResendButton email={email} />
    </div>
  )
}

/** "Forgot password?": asks for a reset link; the answer never says whether the address has an account. */
function ForgotForm({ onBack }: { onBack: () => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const email = String(new FormData(e.currentTarget).get('email')).trim()
    setBusy(true)
    setError(null)
    const result = await sendPasswordReset(email)
    setBusy(false)
    if (!result.ok) return setError(result.message)
    setSentTo(email)
  }
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Reset password">
      <p className="text-sm text-fg/90">{M.forgotIntro}</p>
      <Field label="Email" name="email" type="email" autoComplete="email" placeholder="you@example.com" data-autofocus />
      <InlineError message={error} />
      {sentTo && (
        <p role="status" data-testid="reset-sent" className="text-sm text-fg/90">
          {M.resetSent(sentTo)}
        </p>
      )}
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-md bg-primary px-3 py-2 font-semibold text-bg hover:opacity-90 disabled:opacity-60"
      >
        {busy ? 'Sending…' : 'Send reset link'}
      </button>
      <button type="button" onClick={onBack} className="w-full text-sm text-muted hover:text-fg">
        Back to log in
      </button>
    </form>
  )
}

function LoginForm({ onDone }: { onDone: () => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [factorId, setFactorId] = useState<string | null>(null)
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null)
  const [forgot, setForgot] = useState(false)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    setError(null)
    setUnconfirmed(null)
    const email = String(form.get('email'))
    const result = await logIn(email, String(form.get('password')))
    setBusy(false)
    if (result.kind === 'needs-code') return setFactorId(result.factorId)
    if (result.kind === 'failed') {
      notify.error(M.loginFailed, { description: result.message ?? M.loginFailedDescription })
      setError(result.message ?? M.loginFailedInline)
      if (result.unconfirmed) setUnconfirmed(email)
      return
    }
    notify.success(M.loginSuccess, { description: M.loginSuccessDescription })
    onDone()
  }
  if (factorId) return <CodeForm factorId={factorId} onDone={onDone} />
  if (forgot) return <ForgotForm onBack={() => setForgot(false)} />
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Log in">
      <Field label="Email" name="email" type="email" autoComplete="email" placeholder="you@example.com" data-autofocus />
      <Field label="Password" name="password" type="password" autoComplete="current-password" />
      <InlineError message={error} />
      {unconfirmed && <ResendButton email={unconfirmed} />}
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-md bg-primary px-3 py-2 font-semibold text-bg hover:opacity-90 disabled:opacity-60"
      >
        {busy ? 'Logging in…' : 'Log In'}
      </button>
      <button type="button" onClick={() => setForgot(true)} className="w-full text-sm text-muted hover:text-fg">
        Forgot password?
      </button>
    </form>
  )
}

function RegisterForm({ onDone }: { onDone: () => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [pending, setPending] = useState<string | null>(null)
  // The server's refusal of the name (taken, or reads the same as one), for the name it was given.
  const [nameRefused, setNameRefused] = useState<{ name: string; message: string } | null>(null)
  const nameInput = useRef<HTMLInputElement | null>(null)
  // The server's own rule and words, shown while typing (the server checks again): once, under the field.
  const nameHint =
    (username.trim() ? usernameProblem(username) : null) ??
    (nameRefused && nameRefused.name === normaliseUsername(username) ? nameRefused.message : null)
  const passwordHint = password && password.length < PASSWORD_MIN ? PASSWORD_MESSAGE : null
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    // The field's own hint already says what is wrong: the form does not say it a second time.
    if (nameHint || passwordHint) {
      setError(null)
      if (nameHint) nameInput.current?.focus()
      return
    }
    const form = new FormData(e.currentTarget)
    const name = normaliseUsername(username)
    setBusy(true)
    setError(null)
    const email = String(form.get('email')).trim()
    const result = await register(name, email, password)
    setBusy(false)
    if (!result.ok) {
      const message = result.kind === 'signup-disabled' ? M.registrationDisabled : (result.message ?? M.registrationFailedDescription)
      if (message.startsWith('That username is taken') || message.startsWith('A username is')) {
        setNameRefused({ name, message })
        nameInput.current?.focus()
        return
      }
      notify.error(M.registrationFailed, { description: message })
      setError(message)
      return
    }
    notify.success(M.registrationSuccess, {
      description: result.signedIn ? M.registrationSuccessDescription : M.registrationConfirmDescription,
    })
    if (result.signedIn) onDone()
    else setPending(email)
  }
  if (pending) return <CheckMail email={pending} />
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Register">
      <Field
        label="Username"
        name="username"
        type="text"
        autoComplete="username"
        placeholder="neon_rider"
        data-autofocus
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        onBlur={() => setUsername((u) => u.trim())}
        inputRef={nameInput}
        hint={nameHint}
      />
      <Field label="Email" name="email" type="email" autoComplete="email" placeholder="you@example.com" />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        hint={passwordHint}
      />
      <InlineError message={error} />
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-md bg-secondary px-3 py-2 font-semibold text-bg hover:opacity-90 disabled:opacity-60"
      >
        {busy ? 'Creating account…' : 'Create Account'}
      </button>
    </form>
  )
}

/** The Login / Register dialog: modal, focus kept inside, Escape or the close button dismisses it. */
export function AuthModal({ initialTab = 'login', onClose }: { initialTab?: AuthTab; onClose: () => void }) {
  const [tab, setTab] = useState<AuthTab>(initialTab)
  const dialogRef = useRef<HTMLDivElement>(null)
  const tabRefs = useRef<Record<AuthTab, HTMLButtonElement | null>>({ login: null, register: null })
  const close = useCallback(() => onClose(), [onClose])
  useDialogFocus(dialogRef, close)
  const titleId = useId()

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft' && e.key !== 'Home' && e.key !== 'End') return
    e.preventDefault()
    const next: AuthTab = e.key === 'Home' ? 'login' : e.key === 'End' ? 'register' : tab === 'login' ? 'register' : 'login'
    setTab(next)
    tabRefs.current[next]?.focus()
  }

  return createPortal(
    <div className="fixed inset-0 z-[60] flex items-center justify-center p-4">
      <div className="absolute inset-0 bg-black/70" aria-hidden onClick={close} />
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="panel neon-box relative w-full max-w-sm space-y-4 p-5"
        data-testid="auth-modal"
      >
        <div className="flex items-center justify-between">
          <h2 id={titleId} className="font-display text-lg font-bold text-primary">
            {tab === 'login' ? 'Welcome back' : 'Join CUBE Music'}
          </h2>
          <button type="button" onClick={close} className="rounded p-1 text-muted hover:text-fg" aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
        <div role="tablist" aria-label="Account" className="grid grid-cols-2 gap-1 rounded-md bg-bg p-1 text-sm">
          {TABS.map((t) => (
            <button
              key={t.key}
              ref={(el) => {
                tabRefs.current[t.key] = el
              }}
              type="button"
              role="tab"
              id={`auth-tab-${t.key}`}
              aria-selected={tab === t.key}
              aria-controls={`auth-panel-${t.key}`}
              tabIndex={tab === t.key ? 0 : -1}
              onClick={() => setTab(t.key)}
              onKeyDown={onTabKey}
              className={`rounded px-2 py-1.5 font-semibold ${tab === t.key ? 'bg-primary/20 text-primary' : 'text-muted hover:text-fg'}`}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`auth-panel-${tab}`} aria-labelledby={`auth-tab-${tab}`}>
          {tab === 'login' ? <LoginForm key="login" onDone={close} /> : <RegisterForm key="register" onDone={close} />}
        </div>
      </div>
    </div>,
    document.body,
  )
}
