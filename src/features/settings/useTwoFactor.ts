import { useEffect, useState } from 'react'
import type { TotpEnrolment } from '../../backend/account-settings.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'

export type TwoFactorState =
  | { kind: 'loading' }
  | { kind: 'off' }
  | { kind: 'enrolling'; enrolment: TotpEnrolment }
  | { kind: 'on'; factorId: string }

const fromStatus = (status: { factorId: string | null }): TwoFactorState =>
  status.factorId ? { kind: 'on', factorId: status.factorId } : { kind: 'off' }

/**
 * The account's authenticator-app factor: off → enrolling (a QR code and secret) → on after a
 * verified code; turning it off or cancelling an enrolment removes the factor on the server.
 */
export function useTwoFactor() {
  const { accountSettings, client } = useBackend()
  const { removeTotp, startTotp, totpStatus, verifyTotp } = accountSettings
  const supabase = client.supabase
  const [state, setState] = useState<TwoFactorState>({ kind: 'loading' })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    totpStatus(supabase())
      .then((status) => live && setState(fromStatus(status)))
      .catch((e: unknown) => live && setError(errorMessage(e)))
    return () => {
      live = false
    }
  }, [totpStatus, supabase])

  const run = async (work: () => Promise<void>): Promise<boolean> => {
    setBusy(true)
    setError(null)
    try {
      await work()
      return true
    } catch (e) {
      setError(errorMessage(e))
      return false
    } finally {
      setBusy(false)
    }
  }

  /** On starts an enrolment; off removes the verified factor. */
  const toggle = (on: boolean) =>
    run(async () => {
      if (on) setState({ kind: 'enrolling', enrolment: await startTotp(supabase()) })
      else if (state.kind === 'on') {
        await removeTotp(supabase(), state.factorId)
        notify.success('Two-factor authentication turned off')
        setState({ kind: 'off' })
      }
    })

  /** Verifies the authenticator's code for the enrolment in progress; true when it is on. */
  const verify = (code: string) =>
    state.kind !== 'enrolling'
      ? Promise.resolve(false)
      : run(async () => {
          await verifyTotp(supabase(), state.enrolment.factorId, code)
          notify.success('Two-factor authentication is on', { description: 'Signing in now asks for a code from your authenticator app.' })
          setState(fromStatus(await totpStatus(supabase())))
        })

  const cancel = () =>
    run(async () => {
      if (state.kind === 'enrolling') await removeTotp(supabase(), state.enrolment.factorId)
      setState({ kind: 'off' })
    })

  return { state, error, busy, toggle, verify, cancel }
}
