import { useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { openProjectFromAccount } from './project-copy-service.ts'
import { removeFromAccount } from './studio-project-sync.ts'
import type { StudioProjectMeta } from '../../../backend/studio-projects.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { errorMessage } from '../../../lib/error-message.ts'

/**
 * Projects listed in the signed-in user's account whose mix and audio are not in this browser
 * (saved on another device or browser). One whose full copy is uploaded (the studio uploads each
 * save by itself) opens here: it is downloaded, stored in this browser and opened; one whose
 * upload has not happened yet is listed with a note that its audio is still on another device.
 */
export function AccountOnlyProjects({ localIds, loaded }: { localIds: ReadonlySet<string>; loaded: boolean }) {
  const projects = useAccountProjectStore((s) => s.projects)
  const status = useAccountProjectStore((s) => s.status)
  const userId = useSessionStore((s) => s.user?.id ?? null)
  const [downloading, setDownloading] = useState<{ id: string; progress: number } | null>(null)

  const openCopy = async (p: StudioProjectMeta) => {
    if (!userId || downloading) return
    setDownloading({ id: p.id, progress: 0 })
    try {
      const name = await openProjectFromAccount(userId, p.id, (f) => setDownloading({ id: p.id, progress: f }))
      notify.success('Project opened', { description: `"${name}", downloaded from your account` })
    } catch (err) {
      notify.error('Could not open the project', { description: errorMessage(err) })
    } finally {
      setDownloading(null)
    }
  }
  // Until the local list is read, every account project would look remote.
  const remote = loaded ? projects.filter((p) => !localIds.has(p.id)) : []

  return (
    <div className="mt-3" data-testid="account-projects">
      {status === 'error' && (
        <p className="text-xs text-secondary">Your account's project list could not be loaded; projects in this browser are unaffected.</p>
      )}
      {remote.length > 0 && (
        <>
          <h3 className="text-xs font-bold uppercase tracking-widest text-muted">In your account</h3>
          <ul className="mt-2 space-y-2">
            {remote.map((p) => {
              const noteId = `remote-note-${p.id}`
              const hasCopy = p.audioUploadedAt !== null
              const busy = downloading?.id === p.id
              return (
                <li key={p.id} className="rounded border border-dashed border-line p-2 text-sm" data-testid="remote-project-item">
                  <div className="flex items-center gap-2">
                    <div className="min-w-0 flex-1">
                      <div className="truncate font-semibold" title={p.name}>
                        {p.name}
                      </div>
                      <div className="text-xs text-muted">
                        {p.trackCount} track{p.trackCount === 1 ? '' : 's'} · {new Date(p.updatedAt).toLocaleString()}
                      </div>
                      <div id={noteId} className="text-xs text-accent" data-testid="remote-project-note">
                        {busy
                          ? `Downloading ${Math.round((downloading?.progress ?? 0) * 100)}%`
                          : hasCopy
                            ? `Its full copy (mix and audio) is in your account, uploaded ` +
                              `${new Date(p.audioUploadedAt!).toLocaleString()}: Open downloads it to this browser.`
                            : 'Audio is on another device: it reaches your account by itself the next time the ' +
                              'browser that saved it is online and signed in. Until then only its name and details are here.'}
                      </div>
                    </div>
                    <button
                      type="button"
                      disabled={!hasCopy || downloading !== null}
                      onClick={() => void openCopy(p)}
                      aria-describedby={noteId}
                      title={hasCopy ? undefined : 'Audio is on another device'}
                      className={
                        'rounded border border-primary px-2 py-1 text-xs text-primary disabled:cursor-not-allowed ' +
                        'disabled:border-line disabled:text-muted disabled:opacity-60'
                      }
                      aria-label={`Open ${p.name}`}
                    >
                      Open
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        if (!window.confirm(`Remove "${p.name}" from your account? Its audio on the other device is not affected.`)) return
                        removeFromAccount(p.id)
                          .then(() => notify.success('Project removed from your account'))
                          .catch((err: unknown) => notify.error('Could not remove the project', { description: errorMessage(err) }))
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
