import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { Slot } from '../../ui/slots.tsx'

/** The frame of the public song and profile pages: home link, sign-in, the player bar at the bottom. */
export function PublicShell({ children }: { children: ReactNode }) {
  const user = useSessionStore((s) => s.user)
  return (
    <div className="cyber-grid flex min-h-screen flex-col bg-bg text-fg">
      {/* The bar ends the column (sticky to the viewport's bottom), so the page above it grows to fill the screen. */}
      <div className="flex-1 pb-8">
        <header className="mx-auto flex max-w-4xl items-center justify-between gap-4 p-4 md:px-8">
          <Link to="/" className="font-display text-xl font-black text-primary neon-text">
            CUBE Music
          </Link>
          <nav aria-label="Account" className="flex items-center gap-2">
            <Link to="/app/library" className="rounded-md border border-primary px-3 py-1.5 text-sm font-semibold text-primary">
              Open the app
            </Link>
            {!user && (
              <button
                type="button"
                onClick={() => useAuthModalStore.getState().open('login')}
                className="rounded-md bg-primary px-3 py-1.5 text-sm font-semibold text-bg"
              >
                Sign in
              </button>
            )}
          </nav>
        </header>
        <main id="main" className="mx-auto max-w-4xl p-4 md:px-8">
          {children}
        </main>
      </div>
      <Slot name="PlayerBar" />
      <Slot name="AuthModalHost" />
      <Slot name="StillListeningPrompt" />
    </div>
  )
}
