import type { ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { NotFound } from '../../ui/NotFound.tsx'
import { PageFallback } from '../../ui/PageFallback.tsx'
import { PublicShell } from './PublicShell.tsx'
import { usePublicData } from './usePublicData.ts'

/**
 * A public page for `name` (a slug, a username): loading, the not-found page when `load` answers
 * null, a clear message when the server fails, else `children(data)` in the public frame.
 */
export function PublicDataPage<T>({
  load,
  name,
  what,
  children,
}: {
  load: (name: string) => Promise<T | null>
  name: string
  what: string
  children: (data: T) => ReactNode
}) {
  const { pathname } = useLocation()
  const loaded = usePublicData(load, name)
  if (loaded.state === 'missing') return <NotFound pathname={pathname} />
  return (
    <PublicShell>
      {loaded.state === 'loading' && <PageFallback />}
      {loaded.state === 'error' && (
        <p role="alert" className="panel p-6 text-secondary">
          The {what} could not be loaded: {loaded.message}
        </p>
      )}
      {loaded.state === 'ready' && children(loaded.data)}
    </PublicShell>
  )
}
