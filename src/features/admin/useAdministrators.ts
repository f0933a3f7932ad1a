import { useCallback, useEffect, useState } from 'react'
import { listAdmins, setAdminRole } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { errorMessage } from '../../lib/error-message.ts'

/** Who holds the administrator role, and granting or revoking it by e-mail. */
export function useAdministrators() {
  const [admins, setAdmins] = useState<{ email: string }[]>([])
  const [error, setError] = useState<string | null>(null)
  const reload = useCallback(
    () =>
      listAdmins(supabase())
        .then(setAdmins)
        .catch((e: unknown) => setError(errorMessage(e))),
    [],
  )
  useEffect(() => {
    let live = true
    listAdmins(supabase())
      .then((a) => live && setAdmins(a))
      .catch((e: unknown) => live && setError(errorMessage(e)))
    return () => {
      live = false
    }
  }, [])

  /** True when the role changed (the list is read again before this resolves). */
  const setRole = async (email: string, admin: boolean): Promise<boolean> => {
    setError(null)
    try {
      await setAdminRole(supabase(), email, admin)
    } catch (e) {
      setError(errorMessage(e))
      return false
    }
    await reload()
    return true
  }

  return { admins, error, setRole }
}
