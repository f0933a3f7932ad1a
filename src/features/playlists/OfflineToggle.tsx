import { makeAvailableOffline, stopKeepingOffline, useOfflineStore, type OfflineProgress } from '../../domain/collection/offline-store.ts'
import type { Playlist } from '../../domain/collection/playlist-store.ts'
import { Switch } from '../../ui/Switch.tsx'

/** What the listener reads under the switch: how far saving has come, or what went wrong. */
export function offlineStatusText(progress: OfflineProgress | undefined, on: boolean): string {
  if (!on && !progress?.problem) return 'Save its songs on this device to play them with no connection.'
  if (!progress) return 'Checking which songs are saved…'
  if (progress.busy) return `Saving for offline: ${progress.saved} of ${progress.total} songs…`
  const saved =
    progress.total === 0
      ? 'No songs to save yet: songs you add are saved for offline too.'
      : progress.saved === progress.total
        ? `Available offline: ${progress.total === 1 ? 'the song plays' : `all ${progress.total} songs play`} with no connection.`
        : `${progress.saved} of ${progress.total} songs available offline.`
  return progress.problem ? `${progress.saved === progress.total ? '' : `${saved} `}${progress.problem}` : saved
}

/** "Available offline" for a playlist: saves its songs on the device and keeps them saved. */
export function OfflineToggle({ playlist }: { playlist: Playlist }) {
  const on = useOfflineStore((s) => s.playlistIds.includes(playlist.id))
  const progress = useOfflineStore((s) => s.progress[playlist.id])
  const id = `offline-${playlist.id}`
  return (
    <div className="mt-3 flex items-start gap-3 rounded-md border border-line px-3 py-2">
      <Switch id={id} checked={on} onChange={(next) => void (next ? makeAvailableOffline(playlist.id) : stopKeepingOffline(playlist.id))} />
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-semibold">
          Available offline
        </label>
        <p role="status" className={`text-xs ${progress?.problem ? 'text-secondary' : 'text-muted'}`} data-testid="offline-status">
          {offlineStatusText(progress, on)}
        </p>
      </div>
    </div>
  )
}
