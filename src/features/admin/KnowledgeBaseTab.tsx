import { useState, type FormEvent } from 'react'
import type { KnowledgeEntry } from '../../backend/admin.ts'
import { notify } from '../../lib/notify.ts'
import { useKnowledgeBase } from './useKnowledgeBase.ts'
import { ErrorLine, Field, Panel, buttonClass, inputClass, quietButtonClass } from './admin-ui.tsx'

export const PREVIEW_CHARS = 100
export const preview = (content: string) => (content.length > PREVIEW_CHARS ? `${content.slice(0, PREVIEW_CHARS)}…` : content)

const MISSING = { title: 'Missing information', description: 'Please enter both a title and content for the knowledge base entry.' }

export function KnowledgeBaseTab() {
  const [query, setQuery] = useState('')
  const [editing, setEditing] = useState<KnowledgeEntry | null>(null)
  const [title, setTitle] = useState('')
  const [content, setContent] = useState('')
  const { entries, error, save, remove: removeEntry } = useKnowledgeBase(query)

  const reset = () => {
    setEditing(null)
    setTitle('')
    setContent('')
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!title.trim() || !content.trim()) return notify.error(MISSING.title, { description: MISSING.description })
    if (!(await save(editing, title, content))) return
    notify.success(editing ? 'Entry updated' : 'Entry added')
    reset()
  }

  const remove = async (entry: KnowledgeEntry) => {
    if (!(await removeEntry(entry))) return
    if (editing?.id === entry.id) reset()
    notify.success('Entry deleted')
  }

  return (
    <div className="space-y-4">
      <Panel title={editing ? 'Edit entry' : 'Add entry'} description="Answers the team and the AI features can draw on.">
        <form
          onSubmit={(e) => void submit(e)}
          className="space-y-3"
          aria-label={editing ? 'Edit knowledge base entry' : 'Add knowledge base entry'}
          noValidate
        >
          <Field label="Title">
            {(p) => <input {...p} className={inputClass} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />}
          </Field>
          <Field label="Content">
            {(p) => (
              <textarea
                {...p}
                className={`${inputClass} min-h-28`}
                value={content}
                onChange={(e) => setContent(e.target.value)}
                maxLength={20000}
              />
            )}
          </Field>
          <ErrorLine message={error} />
          <div className="flex gap-2">
            <button type="submit" className={buttonClass}>
              {editing ? 'Save' : 'Add Entry'}
            </button>
            {editing && (
              <button type="button" className={quietButtonClass} onClick={reset}>
                Cancel
              </button>
            )}
          </div>
        </form>
      </Panel>
      <Panel title="Knowledge Base">
        <label htmlFor="kb-search" className="sr-only">
          Search the knowledge base
        </label>
        <input
          id="kb-search"
          type="search"
          className={inputClass}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search titles and content"
        />
        {!entries ? (
          <p className="text-muted">Loading…</p>
        ) : entries.length === 0 ? (
          <p className="text-muted">{query ? 'Nothing matches.' : 'No entries yet.'}</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="kb-list">
            {entries.map((entry) => (
              <li key={entry.id} className="flex items-start justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-semibold text-fg">{entry.title}</p>
                  <p className="break-words text-sm text-muted" data-testid="kb-preview">
                    {preview(entry.content)}
                  </p>
                </div>
                <div className="flex shrink-0 gap-2">
                  <button
                    type="button"
                    className={quietButtonClass}
                    aria-label={`Edit ${entry.title}`}
                    onClick={() => {
                      setEditing(entry)
                      setTitle(entry.title)
                      setContent(entry.content)
                    }}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={quietButtonClass}
                    aria-label={`Delete ${entry.title}`}
                    onClick={() => void remove(entry)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  )
}
