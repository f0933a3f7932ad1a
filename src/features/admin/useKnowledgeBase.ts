import { useEffect, useState } from 'react'
import { addKnowledge, deleteKnowledge, searchKnowledge, updateKnowledge, type KnowledgeEntry } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { errorMessage } from '../../lib/error-message.ts'

/** Typing in the search box waits this long before asking the server. */
const SEARCH_DEBOUNCE_MS = 200

/**
 * The knowledge base: the entries matching `query` (searched again after each change) and the
 * add / update / delete actions. Each action resolves true when the server took it.
 */
export function useKnowledgeBase(query: string) {
  const [entries, setEntries] = useState<KnowledgeEntry[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)

  useEffect(() => {
    let live = true
    const timer = setTimeout(() => {
      searchKnowledge(supabase(), query)
        .then((rows) => live && setEntries(rows))
        .catch((e: unknown) => live && setError(errorMessage(e)))
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [query, version])

  const run = async (change: () => Promise<void>): Promise<boolean> => {
    setError(null)
    try {
      await change()
      setVersion((v) => v + 1)
      return true
    } catch (err) {
      setError(errorMessage(err))
      return false
    }
  }

  /** Saves `editing` with the new text, or adds a new entry when nothing is being edited. */
  const save = (editing: KnowledgeEntry | null, title: string, content: string) =>
    run(() => (editing ? updateKnowledge(supabase(), editing.id, title, content) : addKnowledge(supabase(), title, content)))
  const remove = (entry: KnowledgeEntry) => run(() => deleteKnowledge(supabase(), entry.id))

  return { entries, error, save, remove }
}
