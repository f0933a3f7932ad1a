import { useEffect, useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { recoveryLinkOpened, setNewPassword } from '../../domain/session/sign-in.ts'
import { notify } from '../../lib/notify.ts'
import { PASSWORD_MESSAGE, PASSWORD_MIN } from '../../lib/profile-rules.ts'

const inputClass =
  'w-full rounded-md border border-line bg-bg px-3 py-2 text-fg placeholder:text-muted focus:border-primary focus:outline-none'

function Field({ label, ...props }: { label: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId()
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm text-fg/90">
        {label}
      </label>
      <input id={id} className={inputClass} required {...props} />
    </div>
  )
}

/**
 * Where a password-reset mail's link lands: the link opened a recovery session in this tab (the
 * client read it from the address), and the new password is set with it.
 */
export default function ResetPasswordPage() {
  const [state, setState] = useState<'checking' | 'ready' | 'no-link' | 'done'>('checking')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const navigate = useNavigate()
  const openAuth = useAuthModalStore((s) => s.open)
  useEffect(() => {
    document.title = 'Reset password · CUBE Music'
    let live = true
    void recoveryLinkOpened().then((ok) => {
      if (live) setState(ok ? 'ready' : 'no-link')
    })
    return () => {
      live = false
    }
  }, [])

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const next = String(data.get('next'))
    if (next !== String(data.get('confirm'))) return setError('The new passwords do not match.')
    setBusy(true)
    setError(null)
    const result = await setNewPassword(next)
    setBusy(false)
    if (!result.ok) return setError(result.message)
    setState('done')
    notify.success('Password updated', { description: 'You are signed in with your new password.' })
    void navigate('/app')
  }

  return (
    <section className="mx-auto max-w-md space-y-5 p-4 sm:p-6">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">Reset password</h1>
      <div className="panel space-y-3 p-5" data-testid="reset-password">
        {state === 'checking' && <p className="text-muted">Checking your link…</p>}
        {state === 'no-link' && (
          <>
            <p className="text-fg/90">This reset link is invalid, used or expired. Ask for a new one from the login dialog.</p>
            <button
              type="button"
              onClick={() => openAuth('login')}
              className="rounded-md bg-primary px-4 py-2 font-semibold text-bg hover:opacity-90"
            >
              Log In
            </button>
          </>
        )}
        {state === 'ready' && (
          <form onSubmit={submit} className="space-y-3" aria-label="Set a new password">
            <p className="text-sm text-fg/90">Choose a new password. Your other sessions will be signed out.</p>
            <Field
              label="New password"
              name="next"
              type="password"
              autoComplete="new-password"
              minLength={PASSWORD_MIN}
              title={PASSWORD_MESSAGE}
            />
            <Field label="Repeat new password" name="confirm" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} />
            {error && (
              <p role="alert" className="rounded-md border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm text-red-400">
                {error}
              </p>
            )}
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-md bg-primary px-3 py-2 font-semibold text-bg hover:opacity-90 disabled:opacity-60"
            >
              {busy ? 'Saving…' : 'Set new password'}
            </button>
          </form>
        )}
        {state === 'done' && <p className="text-fg/90">Password updated.</p>}
      </div>
    </section>
  )
}
