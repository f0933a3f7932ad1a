import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach } from 'vitest'
import { notifyManager, QueryClientProvider } from '@tanstack/react-query'
import { BackendContext, type Backend } from '../../src/domain/session/backend-context.ts'
import { queryClient } from '../../src/domain/session/query-client.ts'

// The component tier's one render helper (Vitest browser mode, real Chromium, no server): mounts a
// screen or widget into the page, flushes React with act(), and unmounts it after each test.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
// The query cache tells its components of an answer inside act(), as a click is, so React finishes the update first.
notifyManager.setNotifyFunction((fn) => act(fn))

const mounted: { root: Root; host: HTMLElement }[] = []
afterEach(() => {
  for (const { root, host } of mounted.splice(0)) {
    act(() => root.unmount())
    host.remove()
  }
})

/** Renders `ui` into a fresh element of the page and returns that element. */
export function render(ui: ReactNode): HTMLElement {
  const host = document.createElement('div')
  document.body.append(host)
  const root = createRoot(host)
  mounted.push({ root, host })
  act(() => root.render(ui))
  return host
}

/** Runs `fn` (a click, a store change) and lets React finish what it started. */
export async function settle(fn: () => unknown = () => {}): Promise<void> {
  await act(async () => {
    await fn()
  })
}

/**
 * Renders `ui` with the server-state layer as the app has it: the page's query cache (emptied
 * first, no retries, so a failure shows at once) and `backend` injected, a fake in tests.
 */
export function renderWithBackend(ui: ReactNode, backend: Backend): HTMLElement {
  queryClient.clear()
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 60_000, refetchOnWindowFocus: false } })
  return render(
    <QueryClientProvider client={queryClient}>
      <BackendContext value={backend}>{ui}</BackendContext>
    </QueryClientProvider>,
  )
}
