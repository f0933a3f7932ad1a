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

  // One row, so that at 1280×800 every sidebar item fits above it.
  if (user) {
    return (
      <div className="panel flex items-center gap-1 p-2" data-testid="account-chip">
        <p className="min-w-0 flex-1 truncate px-1 text-sm font-semibold text-fg" title={user.email} data-testid="account-email">
          {user.email}
        </p>
        <Link to="/app/wallet" aria-label="Wallet" title="Wallet" className="rounded-md p-1.5 text-primary hover:bg-primary/10">
          <Icon name="wallet" size={16} />
        </Link>
        <button
          type="button"
          onClick={logout}
          disabled={busy}
          aria-label="Logout"
          title="Logout"
          className="rounded-md p-1.5 text-fg/90 hover:bg-line/40 disabled:opacity-60"
        >
          <Icon name="logout" size={16} />
        </button>
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
