import { useId, useState, type FormEvent } from 'react'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { PASSWORD_MIN } from '../../lib/profile-rules.ts'
import { useEmailChange, usePasswordChange } from './useCredentialChange.ts'
import { FieldError, SettingsSection, buttonClass, inputClass } from './settings-ui.tsx'
import { TwoFactorSettings } from './TwoFactorSettings.tsx'

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

function EmailForm() {
  const email = useSessionStore((s) => s.user?.email ?? '')
  const { error, busy, change } = useEmailChange()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    setSentTo(null)
    if (!(await change(String(data.get('current')), String(data.get('email'))))) return
    const next = String(data.get('email')).trim().toLowerCase()
    notify.success('Confirmation sent', { description: `Open the link we sent to ${next} to finish the change.` })
    setSentTo(next)
    form.reset()
  }
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Change e-mail">
      <p className="text-sm text-muted">
        Current e-mail:{' '}
        <span className="text-fg" data-testid="current-email">
          {email}
        </span>
      </p>
      <Field label="New e-mail" name="email" type="email" autoComplete="email" />
      <Field label="Current password" name="current" type="password" autoComplete="current-password" />
      <FieldError message={error} />
      {sentTo && (
        <p role="status" className="text-sm text-fg/90" data-testid="email-change-sent">
          We sent a confirmation link to {sentTo}. Your e-mail changes once you open it; until then you sign in with {email}. Your current
          address got a notice too.
        </p>
      )}
      <button type="submit" className={buttonClass} disabled={busy}>
        {busy ? 'Saving…' : 'Change e-mail'}
      </button>
    </form>
  )
}

function PasswordForm() {
  const { error, busy, change } = usePasswordChange()
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    if (!(await change(String(data.get('current')), String(data.get('next')), String(data.get('confirm'))))) return
    notify.success('Password updated', { description: 'Your other sessions were signed out.' })
    form.reset()
  }
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Update password">
      <Field label="Current password" name="current" type="password" autoComplete="current-password" />
      <Field label="New password" name="next" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} />
      <Field label="Confirm new password" name="confirm" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} />
      <p className="text-xs text-muted">At least {PASSWORD_MIN} characters. Your other sessions are signed out.</p>
      <FieldError message={error} />
      <button type="submit" className={buttonClass} disabled={busy}>
        {busy ? 'Updating…' : 'Update password'}
      </button>
    </form>
  )
}

export function AccountSettings() {
  return (
    <div className="space-y-4">
      <SettingsSection title="E-mail" description="Changing it needs your current password.">
        <EmailForm />
      </SettingsSection>
      <SettingsSection title="Password">
        <PasswordForm />
      </SettingsSection>
      <SettingsSection
        title="Two-factor authentication"
        description="A second step when signing in, with a code from an app such as Aegis, Google Authenticator or 1Password."
      >
        <TwoFactorSettings />
      </SettingsSection>
    </div>
  )
}
