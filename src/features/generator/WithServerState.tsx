import type { ReactNode } from 'react'
import { useOptionalBackend } from '../../domain/session/backend-context.ts'
import { Slot } from '../../ui/slots.tsx'

/**
 * Renders `children` under the server-state layer: the page's own where it has one (inside /app,
 * a component test's fake), else the app's, loaded on first use, so the landing page that shows
 * the generator still loads no backend until a visitor asks for something that needs it.
 */
export function WithServerState({ children }: { children: ReactNode }) {
  return useOptionalBackend() ? children : <Slot name="ServerState">{children}</Slot>
}
