import { useId, useState, type FormEvent } from 'react'
import { useTwoFactor } from './useTwoFactor.ts'
import { FieldError, Toggle, buttonClass, inputClass, quietButtonClass } from './settings-ui.tsx'

/** The two-factor switch: enrol an authenticator app with a QR code, verify a code, or turn it off. */
export function TwoFactorSettings() {
  const { state, error, busy, toggle, verify, cancel } = useTwoFactor()
  const [code, setCode] = useState('')
  const codeId = useId()

  const confirm = async (e: FormEvent) => {
    e.preventDefault()
    if (await verify(code)) setCode('')
  }

  return (
    <div className="space-y-3" data-testid="two-factor">
      <Toggle
        label="Two-factor authentication"
        hint={
          state.kind === 'on'
            ? 'On: signing in asks for a code from your authenticator app.'
            : 'Ask for a code from an authenticator app when signing in.'
        }
        checked={state.kind === 'on' || state.kind === 'enrolling'}
        disabled={busy || state.kind === 'loading' || state.kind === 'enrolling'}
        onChange={(on) => void toggle(on)}
      />
      {state.kind === 'enrolling' && (
        <form
          onSubmit={(e) => void confirm(e)}
          className="space-y-3 rounded-md border border-line p-4"
          aria-label="Set up two-factor authentication"
        >
          <p className="text-sm text-fg/90">Scan this code with an authenticator app, then enter the 6-digit code it shows.</p>
          <div className="flex flex-wrap items-center gap-4">
            <img
              src={state.enrolment.qrCode}
              alt="QR code for your authenticator app"
              width={180}
              height={180}
              className="shrink-0 rounded bg-white p-2"
              data-testid="totp-qr"
            />
            <div className="min-w-0 flex-1 basis-40 space-y-1 text-xs text-muted">
              <p>Can’t scan? Enter this key in the app instead:</p>
              <code className="block select-all break-all font-mono text-sm text-fg" data-testid="totp-secret">
                {state.enrolment.secret}
              </code>
            </div>
          </div>
          <div className="space-y-1">
            <label htmlFor={codeId} className="block text-sm text-fg/90">
              Code
            </label>
            <input
              id={codeId}
              className={inputClass}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
          </div>
          <FieldError message={error} />
          <div className="flex gap-2">
            <button type="submit" className={buttonClass} disabled={busy || code.length !== 6}>
              Verify and turn on
            </button>
            <button type="button" className={quietButtonClass} onClick={() => void cancel()} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {state.kind !== 'enrolling' && <FieldError message={error} />}
    </div>
  )
}
