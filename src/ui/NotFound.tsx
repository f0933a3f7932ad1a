import { useEffect } from 'react'
import { Link } from 'react-router-dom'

/**
 * The not-found page's content: for unknown routes and for unknown songs and users (a deleted
 * song or a mistyped name). An unknown route is noted in the console as what it is, a handled
 * outcome (a mistyped address, or a link of ours that may be broken), not as an error.
 */
export function NotFound({ pathname, logMissingRoute = false }: { pathname: string; logMissingRoute?: boolean }) {
  useEffect(() => {
    if (logMissingRoute) console.info('[router] 404: no page at', pathname, '(showing the not-found page)')
    document.title = 'Not found · CUBE Music'
  }, [pathname, logMissingRoute])
  return (
    <main className="cyber-grid flex min-h-screen flex-col items-center justify-center gap-6 p-6 text-center">
      <p className="font-display text-8xl font-black text-secondary neon-text" aria-hidden>
        404
      </p>
      <h1 className="text-2xl font-bold text-fg">Track not found in the metaverse</h1>
      <p className="max-w-md text-muted">
        Nothing plays at <code className="text-primary">{pathname}</code>.
      </p>
      <nav aria-label="Recovery links" className="flex gap-3">
        <Link to="/" className="rounded-md bg-primary px-4 py-2 font-semibold text-bg">
          Back to home
        </Link>
        <Link to="/app/home" className="rounded-md border border-primary px-4 py-2 font-semibold text-primary">
          Go to dashboard
        </Link>
      </nav>
    </main>
  )
}
