import { QueryClient } from '@tanstack/react-query'

/**
 * The page's one server-state cache. Each resource has its own query key (the slices' `*-keys.ts`
 * factories), so a change refreshes only what it touched, and a mutation whose answer already says
 * the new state writes it here instead of asking the server again. Services outside React (the
 * listen reporter, the share-link feed) write into this same client.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Data stays fresh until something invalidates it: the app knows when the server changed.
      staleTime: 60_000,
      retry: 1,
      refetchOnWindowFocus: false,
    },
  },
})
