import type { ReactNode } from 'react'
import { QueryClientProvider } from '@tanstack/react-query'
import { BackendContext } from '../domain/session/backend-context.ts'
import { queryClient } from '../domain/session/query-client.ts'
import { backend } from './backend.ts'

/**
 * The server-state layer around every page that talks to the server: the one query cache and the
 * real backend for the data hooks. Only lazily loaded chunks import it (the /app layout and the
 * pages that start the services), so the landing page never loads supabase-js.
 */
export function ServerState({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BackendContext value={backend}>{children}</BackendContext>
    </QueryClientProvider>
  )
}
