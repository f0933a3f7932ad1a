import { useEffect } from 'react'
import { useSessionStore } from '../account/index.ts'
import { useAuthModalStore } from '../account/index.ts'

/** Access follows the server's administrator role (rpc is_admin); the dashboard itself comes later. */
export default function AdminPage() {
  const status = useSessionStore((s) => s.status)
  const isAdmin = useSessionStore((s) => s.isAdmin)
  const roleKnown = useSessionStore((s) => s.roleKnown)
  const openAuth = useAuthModalStore((s) => s.open)
  useEffect(() => {
    document.title = 'Admin Dashboard · CUBE Music'
  }, [])

  if (status === 'loading' || !roleKnown) return <p className="p-6 text-muted" aria-live="polite">Checking access…</p>
  if (!isAdmin) {
    return (
      <section className="mx-auto max-w-3xl p-6" data-testid="admin-denied">
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Admin</h1>
        <div role="alert" className="panel mt-4 p-4">
          <p className="font-semibold text-fg">Administrators only</p>
          <p className="mt-1 text-sm text-muted">
            {status === 'signed-in' ? 'Your account does not have the administrator role.' : 'Log in with an administrator account to open this page.'}
          </p>
          {status === 'signed-out' && (
            <button type="button" onClick={() => openAuth('login')} className="mt-3 rounded-md border border-primary/60 px-3 py-1.5 text-sm text-primary hover:bg-primary/10">
              Log In
            </button>
          )}
        </div>
      </section>
    )
  }
  return (
    <section className="mx-auto max-w-3xl p-6" data-testid="admin-page">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">Admin Dashboard</h1>
      <p className="mt-3 text-muted">The Admin Dashboard (AI providers, site settings, knowledge base) is coming in a later release.</p>
    </section>
  )
}
