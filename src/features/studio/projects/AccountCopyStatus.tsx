import { useState } from 'react'
import { useAccountCopyStatus } from './account-copy-status.ts'
import { retryProjectUpload } from './studio-project-sync.ts'
import { openProjectFromAccount } from './project-copy-service.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import type { ProjectSummary } from './project-store.ts'
import { notify } from '../../../lib/notify.ts'
import { errorMessage } from '../../../lib/error-message.ts'

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

/**
 * For a signed-in creator, where a local project stands in their account, in words: uploading
 * (with progress), waiting for the server, refused (with the reason and Try again), or saved
 * there at a time. Uploads start by themselves after each save (studio-project-sync.ts). When
 * another browser saved a newer version to the account, it offers to bring that one here.
 */
export function AccountCopyStatus({ project }: { project: ProjectSummary }) {
  const phase = useAccountCopyStatus((s) => s.byId[project.id] ?? null)
  const copyAt = useAccountProjectStore((s) => s.projects.find((p) => p.id === project.id)?.audioUploadedAt ?? null)
  const userId = useSessionStore((s) => s.user?.id ?? null)
  const [fetching, setFetching] = useState<number | null>(null)
  const copyTime = copyAt === null ? null : Date.parse(copyAt)
  const current = copyTime !== null && copyTime === project.updatedAt
  const newer = copyTime !== null && copyTime > project.updatedAt

  const getNewer = async () => {
    if (!userId || fetching !== null) return
    setFetching(0)
    try {
      const name = await openProjectFromAccount(userId, project.id, setFetching)
      notify.success('Project opened', { description: `"${name}", its newer version from your account` })
    } catch (err) {
      notify.error('Could not get the newer version', { description: errorMessage(err) })
    } finally {
      setFetching(null)
    }
  }

  let text: string
  let tone = 'text-muted'
  if (fetching !== null) text = `Downloading the newer version… ${Math.round(fetching * 100)}%`
  else if (phase?.phase === 'uploading') text = `Uploading… ${Math.round(phase.progress * 100)}%`
  else if (phase?.phase === 'queued') text = 'Saving to your account…'
  else if (phase?.phase === 'waiting') text = 'Waiting for connection: it uploads as soon as the server can be reached'
  else if (phase?.phase === 'failed') {
    text = `Not saved to your account: ${phase.message}`
    tone = 'text-secondary'
  } else if (current) {
    text = `Saved to your account ${time(copyAt!)}`
    tone = 'text-accent'
  } else if (newer) {
    text = `Your account has a newer version, saved ${time(copyAt!)} in another browser`
    tone = 'text-secondary'
  } else if (copyAt !== null) text = 'Your account has an older version: saving it here uploads this one'
  else text = 'Only in this browser: saving it here stores it in your account'

  return (
    <span className={`ml-1 ${tone}`} role="status" data-testid="project-account-status">
      · {text}
      {newer && !phase && fetching === null && (
        <button
          type="button"
          className="ml-1 text-primary underline"
          onClick={() => void getNewer()}
          aria-label={`Get the newer version of ${project.name} from your account`}
        >
          Get it
        </button>
      )}
      {phase?.phase === 'failed' && (
        <button
          type="button"
          className="ml-1 text-primary underline"
          onClick={() => retryProjectUpload(project.id)}
          aria-label={`Try uploading ${project.name} to your account again`}
        >
          Try again
        </button>
      )}
    </span>
  )
}
