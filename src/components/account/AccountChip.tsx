import { useSessionStore } from '../../stores/session-store.ts'

// Signed-out state only until the backend lands the login modal and session wiring.
export function AccountChip() {
  const user = useSessionStore((s) => s.user)
  if (user) return <p className="truncate text-sm text-fg" title={user.email}>{user.email}</p>
  return (
    <button type="button" className="w-full rounded-md border border-primary/60 px-3 py-2 text-sm font-semibold text-primary hover:bg-primary/10">
      Login / Register
    </button>
  )
}
