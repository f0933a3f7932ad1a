import { useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { uploadProjectToAccount } from './project-copy-service.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import type { ProjectSummary } from './project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { errorMessage } from '../../../lib/error-message.ts'

/**
 * For a signed-in user, a local project's full copy in the account: whether it is there and
 * current, and the button that uploads it (mix and audio), with progress.
 */
export function UploadCopyButton({ project }: { project: ProjectSummary }) {
  const userId = useSessionStore((s) => s.user?.id ?? null)
  const copyAt = useAccountProjectStore((s) => s.projects.find((p) => p.id === project.id)?.audioUploadedAt ?? null)
  const [progress, setProgress] = useState<number | null>(null)
  if (!userId) return null
  const copyTime = copyAt ? Date.parse(copyAt) : null
  const current = copyTime !== null && copyTime >= project.updatedAt

  const upload = async () => {
    setProgress(0)
    try {
      const name = await uploadProjectToAccount(userId, project.id, setProgress)
      notify.success('Project uploaded', { description: `"${name}" now opens in any browser you sign in to.` })
    } catch (err) {
      notify.error('Upload failed', { description: `Your project is safe in this browser. ${errorMessage(err)}` })
    } finally {
      setProgress(null)
    }
  }

  return (
    <>
      {copyTime !== null && (
        <span className={`ml-1 ${current ? 'text-accent' : 'text-secondary'}`} data-testid="project-copy-state">
          · {current ? 'Full copy in your account' : 'Account copy is older'}
        </span>
      )}
      {progress !== null ? (
        <span role="status" className="ml-1 font-mono text-accent" data-testid="project-upload-progress">
          · Uploading {Math.round(progress * 100)}%
        </span>
      ) : (
        !current && (
          <button
            type="button"
            onClick={() => void upload()}
            className="ml-1 inline-flex items-center gap-1 text-primary underline"
            aria-label={`Upload ${project.name} to your account`}
          >
            <Icon name="upload" size={12} /> {copyTime === null ? 'Upload to account' : 'Upload again'}
          </button>
        )
      )}
    </>
  )
}
