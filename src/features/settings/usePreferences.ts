import { useEffect, useState } from 'react'
import {
  DEFAULT_SETTINGS,
  deleteMyAccount,
  fetchUserSettings,
  saveUserSettings,
  type UserSettings,
} from '../../backend/account-settings.ts'
import { supabase } from '../../backend/client.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'

// The defaults live in src/backend/account-settings.ts, which another change owns for now; the
// switches read them from here so no component imports the backend.
export { DEFAULT_SETTINGS }

/** The server-side preferences (Notifications or Privacy): each switch is saved at once, and undone if the server refuses. */
export function usePreferences(userId: string) {
  const [settings, setSettings] = useState<UserSettings | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    fetchUserSettings(supabase(), userId)
      .then((s) => live && setSettings(s))
      .catch((e: unknown) => live && setError(errorMessage(e)))
    return () => {
      live = false
    }
  }, [userId])
  const change = async (key: keyof UserSettings, on: boolean) => {
    if (!settings) return
    const previous = settings
    const next = { ...settings, [key]: on }
    setSettings(next)
    setError(null)
    try {
      await saveUserSettings(supabase(), userId, next)
      notify.success('Settings saved')
    } catch (e) {
      setSettings(previous)
      setError(errorMessage(e))
    }
  }
  return { settings, error, change }
}

/** Deleting the account, confirmed by its username; stays busy after success (the session ends). */
export function useDeleteAccount(userId: string) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const remove = async (confirmation: string) => {
    setBusy(true)
    setError(null)
    try {
      await deleteMyAccount(supabase(), userId, confirmation.trim())
      notify.success('Account deleted', { description: 'Your personal data and files were removed.' })
    } catch (e) {
      setError(errorMessage(e))
      setBusy(false)
    }
  }
  return { busy, error, remove }
}
