import { useEffect, useMemo, useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { MAX_PROJECT_NAME, PROJECT_NAME_TOO_LONG, useProjectStore, type ProjectSummary } from './project-store.ts'
import { limitedInputProps } from '../../../ui/limited-input.ts'

const projectNameInput = limitedInputProps(MAX_PROJECT_NAME, PROJECT_NAME_TOO_LONG)
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { AccountOnlyProjects } from './AccountOnlyProjects.tsx'
import { AccountCopyStatus } from './AccountCopyStatus.tsx'
import { Icon } from '../../../ui/Icon.tsx'
import { errorMessage } from '../../../lib/error-message.ts'

/** Saved projects in this browser: reopen, rename, delete. */
export function ProjectsPanel() {
  const { projects, loaded, refresh, open, rename, remove } = useProjectStore()
  const openId = useMixerStore((s) => s.project?.id ?? null)
  const [editing, setEditing] = useState<string | null>(null)
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const accountProjects = useAccountProjectStore((s) => s.projects)
  const inAccount = useMemo(() => new Set(accountProjects.map((p) => p.id)), [accountProjects])
  const localIds = useMemo(() => new Set(projects.map((p) => p.id)), [projects])

  useEffect(() => {
    refresh().catch((err: unknown) => notify.error('Projects unavailable', { description: errorMessage(err) }))
  }, [refresh])

  const doOpen = async (p: ProjectSummary) => {
    try {
      mixerEngine.stop()
      await open(p.id)
      notify.success('Project opened', { description: p.name })
    } catch (err) {
      notify.error('Could not open project', { description: errorMessage(err) })
    }
  }

  return (
    <section aria-labelledby="projects-heading" className="panel p-4">
      <h2 id="projects-heading" className="font-display text-sm font-bold uppercase tracking-widest text-primary">
        Projects
      </h2>
      {loaded && projects.length === 0 && (
        <p className="mt-2 text-sm text-muted">No saved projects yet. Save Project stores the mix and its audio in this browser.</p>
      )}
      <ul className="mt-2 space-y-2">
        {projects.map((p) => (
          <li
            key={p.id}
            className={`rounded border p-2 text-sm ${p.id === openId ? 'border-primary' : 'border-line'}`}
            data-testid="project-item"
          >
            {editing === p.id ? (
              <form
                className="flex gap-2"
                onSubmit={(e) => {
                  e.preventDefault()
                  const name = String(new FormData(e.currentTarget).get('name') ?? '')
                  rename(p.id, name)
                    .then(() => {
                      setEditing(null)
                      notify.success('Project renamed')
                    })
                    .catch((err: unknown) => notify.error('Could not rename', { description: errorMessage(err) }))
                }}
              >
                <input
                  name="name"
                  defaultValue={p.name}
                  {...projectNameInput}
                  aria-label="Project name"
                  // eslint-disable-next-line jsx-a11y/no-autofocus -- shown by the user's Rename click: focus follows them into the field
                  autoFocus
                  className="min-w-0 flex-1 rounded border border-line bg-bg px-2 py-1"
                />
                <button type="submit" className="rounded border border-primary px-2 text-primary">
                  Save
                </button>
                <button type="button" onClick={() => setEditing(null)} className="rounded border border-line px-2">
                  Cancel
                </button>
              </form>
            ) : (
              <div className="flex items-center gap-2">
                <div className="min-w-0 flex-1">
                  <div className="truncate font-semibold" title={p.name}>
                    {p.name}
                  </div>
                  <div className="text-xs text-muted">
                    {p.trackCount} track{p.trackCount === 1 ? '' : 's'} · {new Date(p.updatedAt).toLocaleString()}
                    {signedIn && inAccount.has(p.id) && (
                      <span className="ml-1 text-accent" data-testid="project-in-account">
                        · In your account
                      </span>
                    )}
                    {signedIn && <AccountCopyStatus project={p} />}
                  </div>
                </div>
                <button
                  type="button"
                  onClick={() => void doOpen(p)}
                  className="rounded border border-primary px-2 py-1 text-xs text-primary"
                  aria-label={`Open ${p.name}`}
                >
                  Open
                </button>
                <button
                  type="button"
                  onClick={() => setEditing(p.id)}
                  className="rounded p-1 text-muted hover:text-fg"
                  aria-label={`Rename ${p.name}`}
                >
                  <Icon name="edit" size={14} />
                </button>
                <button
                  type="button"
                  onClick={() => {
                    if (!window.confirm(`Delete "${p.name}" and its stored audio?`)) return
                    remove(p.id)
                      .then(() => notify.success('Project deleted'))
                      .catch((err: unknown) => notify.error('Could not delete', { description: errorMessage(err) }))
                  }}
                  className="rounded p-1 text-muted hover:text-secondary"
                  aria-label={`Delete ${p.name}`}
                >
                  <Icon name="trash" size={14} />
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {signedIn && <AccountOnlyProjects localIds={localIds} loaded={loaded} />}
    </section>
  )
}
