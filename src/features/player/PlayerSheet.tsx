import { useRef } from 'react'
import { Link } from 'react-router-dom'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { Icon } from '../../ui/Icon.tsx'
import { Slot } from '../../ui/slots.tsx'
import { useDialogFocus } from '../../ui/useDialogFocus.ts'
import { LikeButton } from './LikeButton.tsx'
import { QueueList } from './QueueList.tsx'
import { SeekBar } from './SeekBar.tsx'
import { TransportControls } from './TransportControls.tsx'
import { VolumeControl } from './VolumeControl.tsx'

/**
 * The compact bar's full player, as a sheet from the bottom: CUBE Radio's controls, the song,
 * seeking, all transport, volume and the queue. Modal: focus stays inside, Escape or the backdrop
 * closes it and focus goes back to the expand button.
 */
export function PlayerSheet({ onClose }: { onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null)
  useDialogFocus(panel, onClose)
  const song = usePlayerStore((s) => s.currentSong)
  return (
    <div className="fixed inset-0 z-40 flex flex-col" data-testid="player-sheet">
      <button type="button" tabIndex={-1} aria-label="Close player" onClick={onClose} className="min-h-16 flex-1 bg-black/60" />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby="player-sheet-title"
        className={
          'panel max-h-[85dvh] overflow-y-auto overscroll-contain rounded-t-xl rounded-b-none border-b-0 p-4 ' +
          'pb-[calc(1rem+env(safe-area-inset-bottom,0px))]'
        }
      >
        <div className="mb-3 flex items-center justify-between">
          <h2 id="player-sheet-title" className="font-display text-sm font-bold tracking-widest text-primary">
            Now Playing
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Collapse player"
            data-autofocus
            className="rounded p-2 text-muted hover:text-fg"
          >
            <Icon name="chevron" size={18} />
          </button>
        </div>
        <div className="[&>div]:mb-3">
          <Slot name="StationMiniControls" />
        </div>
        <div className="mb-3 flex items-center gap-3">
          {song ? (
            <img src={song.image} alt="" className="h-16 w-16 shrink-0 rounded-md border border-line object-cover" />
          ) : (
            <div className="flex h-16 w-16 shrink-0 items-center justify-center rounded-md border border-line text-muted">
              <Icon name="music" />
            </div>
          )}
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold" data-testid="sheet-title">
              {song?.title ?? 'Nothing playing'}
            </p>
            <p className="truncate text-sm text-muted">{song?.artist ?? 'Pick a track in your Library'}</p>
          </div>
          {song && <LikeButton song={song} label="Like" />}
        </div>
        <SeekBar />
        <div className="my-3">
          <TransportControls size="lg" />
        </div>
        <VolumeControl />
        <div className="mt-4">
          <QueueList />
        </div>
        <Link
          to="/now-playing"
          className="mt-4 block rounded-md border border-line px-3 py-2 text-center text-sm text-primary hover:border-primary"
        >
          Open Now Playing
        </Link>
      </div>
    </div>
  )
}
