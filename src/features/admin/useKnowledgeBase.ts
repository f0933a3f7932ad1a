import { useEffect, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useBackend } from '../../domain/session/backend-context.ts'
import { errorMessage } from '../../lib/error-message.ts'
import type { KnowledgeEntry } from '../../backend/admin.ts'
import { adminKeys } from './admin-keys.ts'

/** Typing in the search box waits this long before asking the server. */
const SEARCH_DEBOUNCE_MS = 200

/**
 * The knowledge base: the entries matching `query` (searched again after each change) and the
 * add / update / delete actions. Each action resolves true when the server took it.
 */
export function useKnowledgeBase(query: string) {
  const { admin, client } = useBackend()
  const cache = useQueryClient()
  const [searched, setSearched] = useState(query)
  const [actionError, setActionError] = useState<string | null>(null)
  useEffect(() => {
    const timer = setTimeout(() => setSearched(query), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [query])
  const search = useQuery({
    queryKey: adminKeys.knowledge(searched),
    queryFn: () => admin.searchKnowledge(client.supabase(), searched),
    staleTime: 0,
    retry: false,
    placeholderData: (previous) => previous,
  })

  const run = async (change: () => Promise<void>): Promise<boolean> => {
    setActionError(null)
    try {
      await change()
      await cache.invalidateQueries({ queryKey: adminKeys.knowledgeAll() })
      return true
    } catch (err) {
      setActionError(errorMessage(err))
      return false
    }
  }

  /** Saves `editing` with the new text, or adds a new entry when nothing is being edited. */
  const save = (editing: KnowledgeEntry | null, title: string, content: string) =>
    run(() =>
      editing
        ? admin.updateKnowledge(client.supabase(), editing.id, title, content)
        : admin.addKnowledge(client.supabase(), title, content),
    )
  const remove = (entry: KnowledgeEntry) => run(() => admin.deleteKnowledge(client.supabase(), entry.id))

  const error = actionError ?? (search.isError ? errorMessage(search.error) : null)
  return { entries: search.data ?? null, error, save, remove }
}
