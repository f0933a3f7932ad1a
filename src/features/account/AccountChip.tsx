import { useState } from 'react'
import { Link } from 'react-router-dom'
import { notify } from '../../lib/notify.ts'
import { Icon } from '../../ui/Icon.tsx'
import { logOut } from '../../domain/session/sign-in.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { AUTH_MESSAGES as M } from './auth-messages.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'

/** Sidebar account area: the signed-in e-mail with Wallet and Logout, or the Login / Register button. */
export function AccountChip() {
  const user = useSessionStore((s) => s.user)
  const status = useSessionStore((s) => s.status)
  const open = useAuthModalStore((s) => s.open)
  const [busy, setBusy] = useState(false)

  const logout = async () => {
    setBusy(true)
    const result = await logOut()
    setBusy(false)
    if (result.ok) notify.success(M.logoutSuccess)
    else notify.error(M.logoutFailed, { description: result.message })
  }

  if (user) {
    return (
      <div className="panel space-y-2 p-3" data-testid="account-chip">
        <p className="truncate text-sm font-semibold text-fg" title={user.email} data-testid="account-email">
          {user.email}
        </p>
        <div className="flex gap-2">
          <Link
            to="/app/wallet"
            className={
              'flex flex-1 items-center justify-center gap-1 rounded-md border border-primary/60 px-2 py-1.5 ' +
              'text-sm text-primary hover:bg-primary/10'
            }
          >
            <Icon name="wallet" size={16} /> Wallet
          </Link>
          <button
            type="button"
            onClick={logout}
            disabled={busy}
            className={
              'flex flex-1 items-center justify-center gap-1 rounded-md border border-line px-2 py-1.5 text-sm ' +
              'text-fg/90 hover:bg-line/40 disabled:opacity-60'
            }
          >
            <Icon name="logout" size={16} /> Logout
          </button>
        </div>
      </div>
    )
  }
  if (status === 'loading')
    return (
      <p className="px-3 py-2 text-sm text-muted" aria-live="polite">
        Checking session…
      </p>
    )
  return (
    <button
      type="button"
      onClick={() => open('login')}
      aria-haspopup="dialog"
      className="w-full rounded-md border border-primary/60 px-3 py-2 text-sm font-semibold text-primary hover:bg-primary/10"
    >
      Login / Register
    </button>
  )
}
