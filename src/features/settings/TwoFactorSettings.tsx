import { useCallback, useEffect, useId, useState, type FormEvent } from 'react'
import { removeTotp, startTotp, totpStatus, verifyTotp, type TotpEnrolment } from '../../backend/account-settings.ts'
import { supabase } from '../../backend/client.ts'
import { notify } from '../../lib/notify.ts'
import { FieldError, Toggle, buttonClass, inputClass, quietButtonClass } from './settings-ui.tsx'

type State = { kind: 'loading' } | { kind: 'off' } | { kind: 'enrolling'; enrolment: TotpEnrolment } | { kind: 'on'; factorId: string }

/** The two-factor switch: enrol an authenticator app with a QR code, verify a code, or turn it off. */
export function TwoFactorSettings() {
  const [state, setState] = useState<State>({ kind: 'loading' })
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const codeId = useId()

  const refresh = useCallback(async () => {
    const status = await totpStatus(supabase())
    setState(status.factorId ? { kind: 'on', factorId: status.factorId } : { kind: 'off' })
  }, [])
  useEffect(() => {
    let live = true
    totpStatus(supabase())
      .then((status) => live && setState(status.factorId ? { kind: 'on', factorId: status.factorId } : { kind: 'off' }))
      .catch((e: unknown) => live && setError((e as Error).message))
    return () => {
      live = false
    }
  }, [])

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await work()
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }

  const toggle = (on: boolean) =>
    run(async () => {
      if (on) setState({ kind: 'enrolling', enrolment: await startTotp(supabase()) })
      else if (state.kind === 'on') {
        await removeTotp(supabase(), state.factorId)
        notify.success('Two-factor authentication turned off')
        setState({ kind: 'off' })
      }
    })

  const confirm = (e: FormEvent) => {
    e.preventDefault()
    if (state.kind !== 'enrolling') return
    void run(async () => {
      await verifyTotp(supabase(), state.enrolment.factorId, code)
      setCode('')
      notify.success('Two-factor authentication is on', { description: 'Signing in now asks for a code from your authenticator app.' })
      await refresh()
    })
  }

  const cancel = () =>
    run(async () => {
      if (state.kind === 'enrolling') await removeTotp(supabase(), state.enrolment.factorId)
      setState({ kind: 'off' })
    })

  return (
    <div className="space-y-3" data-testid="two-factor">
      <Toggle
        label="Two-factor authentication"
        hint={state.kind === 'on' ? 'On: signing in asks for a code from your authenticator app.' : 'Ask for a code from an authenticator app when signing in.'}
        checked={state.kind === 'on' || state.kind === 'enrolling'}
        disabled={busy || state.kind === 'loading' || state.kind === 'enrolling'}
        onChange={(on) => void toggle(on)}
      />
      {state.kind === 'enrolling' && (
        <form onSubmit={confirm} className="space-y-3 rounded-md border border-line p-4" aria-label="Set up two-factor authentication">
          <p className="text-sm text-fg/90">Scan this code with an authenticator app, then enter the 6-digit code it shows.</p>
          <img src={state.enrolment.qrCode} alt="QR code for your authenticator app" width={180} height={180} className="rounded bg-white p-2" data-testid="totp-qr" />
          <p className="text-xs text-muted">
            Can’t scan? Enter this key: <code className="select-all break-all text-fg" data-testid="totp-secret">{state.enrolment.secret}</code>
          </p>
          <div className="space-y-1">
            <label htmlFor={codeId} className="block text-sm text-fg/90">Code</label>
            <input id={codeId} className={inputClass} inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required
              value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
          </div>
          <FieldError message={error} />
          <div className="flex gap-2">
            <button type="submit" className={buttonClass} disabled={busy || code.length !== 6}>Verify and turn on</button>
            <button type="button" className={quietButtonClass} onClick={() => void cancel()} disabled={busy}>Cancel</button>
          </div>
        </form>
      )}
      {state.kind !== 'enrolling' && <FieldError message={error} />}
    </div>
  )
}
