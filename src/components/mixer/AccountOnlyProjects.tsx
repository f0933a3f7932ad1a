import { toast } from 'sonner'
import { removeFromAccount } from '../../backend/studio-project-sync.ts'
import { useAccountProjectStore } from '../../stores/account-project-store.ts'
import { Icon } from '../Icon.tsx'

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * Projects listed in the signed-in user's account whose mix and audio are not in this browser
 * (saved on another device or browser): shown so the account is complete, but they cannot be
 * opened here because only their metadata is on the server.
 */
export function AccountOnlyProjects({ localIds, loaded }: { localIds: ReadonlySet<string>; loaded: boolean }) {
  const projects = useAccountProjectStore((s) => s.projects)
  const status = useAccountProjectStore((s) => s.status)
  // Until the local list is read, every account project would look remote.
  const remote = loaded ? projects.filter((p) => !localIds.has(p.id)) : []

  return (
    <div className="mt-3" data-testid="account-projects">
      {status === 'error' && <p className="text-xs text-secondary">Your account's project list could not be loaded; projects in this browser are unaffected.</p>}
      {remote.length > 0 && (
        <>
          <h3 className="text-xs font-bold uppercase tracking-widest text-muted">In your account</h3>
          <ul className="mt-2 space-y-2">
            {remote.map((p) => {
              const noteId = `remote-note-${p.id}`
              return (
                <li key={p.id} className="rounded border border-dashed border-line p-2 text-sm" data-testid="remote-project-item">
                  <div className="flex items-center gap-2">
                    <div className="min-w-0 flex-1">
                      <div className="truncate font-semibold">{p.name}</div>
                      <div className="text-xs text-muted">
                        {p.trackCount} track{p.trackCount === 1 ? '' : 's'} · {new Date(p.updatedAt).toLocaleString()}
                      </div>
                      <div id={noteId} className="text-xs text-accent" data-testid="remote-project-note">
                        Audio is on another device. Open it in the browser where it was saved; only its name and details are stored in your account.
                      </div>
                    </div>
                    <button
                      type="button"
                      disabled
                      aria-describedby={noteId}
                      title="Audio is on another device"
                      className="cursor-not-allowed rounded border border-line px-2 py-1 text-xs text-muted opacity-60"
                      aria-label={`Open ${p.name}`}
                    >
                      Open
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        if (!window.confirm(`Remove "${p.name}" from your account? Its audio on the other device is not affected.`)) return
                        removeFromAccount(p.id)
                          .then(() => toast.success('Project removed from your account'))
                          .catch((err: unknown) => toast.error('Could not remove the project', { description: errText(err) }))
                      }}
                      className="rounded p-1 text-muted hover:text-secondary"
                      aria-label={`Remove ${p.name} from your account`}
                    >
                      <Icon name="trash" size={14} />
                    </button>
                  </div>
                </li>
              )
            })}
          </ul>
        </>
      )}
    </div>
  )
}
