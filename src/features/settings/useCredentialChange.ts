import { useState } from 'react'
import { useBackend } from '../../domain/session/backend-context.ts'
import { errorMessage } from '../../lib/error-message.ts'

/** A form's one submission: busy while it runs, the failure's text after; resolves true on success. */
function useSubmission<A extends unknown[]>(work: (...args: A) => Promise<void>) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (...args: A): Promise<boolean> => {
    setBusy(true)
    setError(null)
    try {
      await work(...args)
      return true
    } catch (err) {
      setError(errorMessage(err))
      return false
    } finally {
      setBusy(false)
    }
  }
  return { error, busy, submit, setError }
}

/** Changing the sign-in e-mail, confirmed with the current password. */
export function useEmailChange() {
  const { accountSettings, client } = useBackend()
  const { error, busy, submit } = useSubmission((currentPassword: string, email: string) =>
    accountSettings.changeEmail(client.supabase(), currentPassword, email),
  )
  return { error, busy, change: submit }
}

/** Changing the password: the two new entries must match before anything is sent. */
export function usePasswordChange() {
  const { accountSettings, client } = useBackend()
  const { error, busy, submit, setError } = useSubmission((currentPassword: string, next: string) =>
    accountSettings.changePassword(client.supabase(), currentPassword, next),
  )
  const change = async (currentPassword: string, next: string, confirm: string): Promise<boolean> => {
    if (next !== confirm) {
      setError('The new passwords do not match.')
      return false
    }
    return submit(currentPassword, next)
  }
  return { error, busy, change }
}
