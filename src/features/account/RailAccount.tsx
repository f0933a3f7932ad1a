import { Link } from 'react-router-dom'
import { Icon } from '../../ui/Icon.tsx'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'

/** The account entry of the collapsed icon rail: the wallet when signed in, the login dialog otherwise. */
export function RailAccount() {
  const user = useSessionStore((s) => s.user)
  const open = useAuthModalStore((s) => s.open)
  if (user) {
    return (
      <Link
        to="/app/wallet"
        title={user.email}
        aria-label={`Account ${user.email}: wallet`}
        className="block rounded-md p-2 text-primary hover:bg-line/40"
      >
        <Icon name="user" />
      </Link>
    )
  }
  return (
    <button
      type="button"
      onClick={() => open('login')}
      aria-haspopup="dialog"
      aria-label="Login / Register"
      title="Login / Register"
      className="rounded-md p-2 text-primary hover:bg-line/40"
    >
      <Icon name="user" />
    </button>
  )
}
