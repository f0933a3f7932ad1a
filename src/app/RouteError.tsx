import { Link, useRouteError } from 'react-router-dom'
import { errorMessage } from '../lib/error-message.ts'

/** The generic error panel: a page that throws never takes the whole app down. */
export function RouteError() {
  const error = useRouteError()
  const message = errorMessage(error)
  console.error(error)
  return (
    <main role="alert" className="mx-auto max-w-xl p-8 text-center">
      <h1 className="text-2xl font-bold text-secondary">Something went wrong</h1>
      <p className="mt-2 text-muted">{message}</p>
      <Link to="/app/home" className="mt-4 inline-block rounded-md border border-primary px-4 py-2 text-primary">
        Back to the dashboard
      </Link>
    </main>
  )
}
