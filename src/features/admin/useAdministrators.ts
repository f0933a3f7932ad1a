import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useBackend } from '../../domain/session/backend-context.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { adminKeys } from './admin-keys.ts'

const NONE: { email: string }[] = []

/** Who holds the administrator role, and granting or revoking it by e-mail. */
export function useAdministrators() {
  const backend = useBackend()
  const cache = useQueryClient()
  const [roleError, setRoleError] = useState<string | null>(null)
  const list = useQuery({
    queryKey: adminKeys.administrators(),
    queryFn: () => backend.admin.listAdmins(backend.client.supabase()),
    retry: false,
  })

  /** True when the role changed (the list is read again before this resolves). */
  const setRole = async (email: string, admin: boolean): Promise<boolean> => {
    setRoleError(null)
    try {
      await backend.admin.setAdminRole(backend.client.supabase(), email, admin)
    } catch (e) {
      setRoleError(errorMessage(e))
      return false
    }
    await cache.invalidateQueries({ queryKey: adminKeys.administrators() })
    return true
  }

  const error = roleError ?? (list.isError ? errorMessage(list.error) : null)
  return { admins: list.data ?? NONE, error, setRole }
}
