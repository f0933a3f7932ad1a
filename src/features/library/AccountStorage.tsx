import { formatBytes, useAccountStorage, type CreationUpload } from '../../domain/collection/use-account-storage.ts'

function UploadRow({ upload }: { upload: CreationUpload }) {
  const percent = Math.round(upload.fraction * 100)
  return (
    <li data-testid="creation-upload" data-status={upload.status} className="flex flex-col gap-1">
      <span className="flex justify-between gap-2 text-sm">
        <span className="min-w-0 truncate">{upload.title}</span>
        <span className="shrink-0 text-muted">{upload.status === 'uploading' ? `${percent}%` : `${percent}% · paused`}</span>
      </span>
      <progress className="h-1.5 w-full accent-primary" max={100} value={percent} aria-label={`Uploading ${upload.title}`} />
      {upload.message && upload.status !== 'quota' && <span className="text-xs text-muted">{upload.message}</span>}
    </li>
  )
}

/**
 * The account's storage on the Library page: how much of the quota the user's own tracks and
 * studio copies use, each upload on its way (with progress, or why it waits), and, when the account
 * is full, the server's message.
 */
export function AccountStorage() {
  const { signedIn, usage, uploads, fullMessage } = useAccountStorage()
  if (!signedIn) {
    return (
      <p data-testid="account-storage" className="mt-3 text-sm text-muted">
        What you make stays in this browser. Sign in to keep it in your account and find it on every device.
      </p>
    )
  }
  const percent = usage && usage.limitBytes > 0 ? Math.min(100, Math.round((100 * usage.usedBytes) / usage.limitBytes)) : 0
  return (
    <section data-testid="account-storage" aria-label="Account storage" className="mt-3 rounded-lg border border-line bg-panel/80 p-3">
      {usage ? (
        <>
          <p className="text-sm" data-testid="account-storage-usage">
            {`${formatBytes(usage.usedBytes)} of ${formatBytes(usage.limitBytes)} used · `}
            {`${usage.items} ${usage.items === 1 ? 'track' : 'tracks'} in your account`}
          </p>
          <div
            role="meter"
            aria-label="Account storage used"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={`${formatBytes(usage.usedBytes)} of ${formatBytes(usage.limitBytes)}`}
            className="mt-1 h-1.5 w-full overflow-hidden rounded-full bg-line"
          >
            <div className={`h-full ${percent >= 100 ? 'bg-red-500' : 'bg-primary'}`} style={{ width: `${percent}%` }} />
          </div>
        </>
      ) : (
        <p className="text-sm text-muted">Reading your account storage…</p>
      )}
      {fullMessage && (
        <p role="alert" data-testid="account-storage-full" className="mt-2 text-sm text-red-400">
          {fullMessage}
        </p>
      )}
      {uploads.length > 0 && (
        <ul aria-label="Uploads to your account" className="mt-2 flex flex-col gap-2">
          {uploads.map((u) => (
            <UploadRow key={u.id} upload={u} />
          ))}
        </ul>
      )}
    </section>
  )
}
