import { useState } from 'react'
import { Link } from 'react-router-dom'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { Icon } from '../../ui/Icon.tsx'
import { TransportControls } from './TransportControls.tsx'
import { SeekBar } from './SeekBar.tsx'
import { VolumeControl } from './VolumeControl.tsx'
import { RewardPop } from './RewardPop.tsx'
import { PlayerGlobals } from './PlayerGlobals.tsx'
import { Slot } from '../../ui/slots.tsx'

/** Floating player at bottom right: a round button, or the expanded 'Now Playing' panel. */
export function MiniPlayer() {
  const [expanded, setExpanded] = useState(false)
  const song = usePlayerStore((s) => s.currentSong)
  const isPlaying = usePlayerStore((s) => s.isPlaying)

  return (
    <div
      className={
        'fixed right-(--floating-player-inset) ' +
        'bottom-[calc(var(--floating-player-inset)+env(safe-area-inset-bottom,0px))] z-40 flex flex-col items-end ' +
        'gap-2'
      }
    >
      <PlayerGlobals />
      <RewardPop />
      {expanded ? (
        <section aria-labelledby="mini-player-title" className="panel neon-box w-80 max-w-[calc(100vw-2rem)] p-4">
          <div className="mb-3 flex items-center justify-between">
            <h2 id="mini-player-title" className="font-display text-sm font-bold tracking-widest text-primary">
              Now Playing
            </h2>
            <button
              type="button"
              onClick={() => setExpanded(false)}
              aria-label="Collapse player"
              aria-expanded="true"
              className="rounded p-1 text-muted hover:text-fg"
            >
              <Icon name="close" size={16} />
            </button>
          </div>
          <Slot name="StationMiniControls" />
          <div className="mb-3 flex items-center gap-3">
            {song ? (
              <img
                src={song.image}
                alt={`Cover of ${song.title}`}
                className="h-14 w-14 shrink-0 rounded-md border border-line object-cover"
              />
            ) : (
              <div className="flex h-14 w-14 shrink-0 items-center justify-center rounded-md border border-line text-muted">
                <Icon name="music" />
              </div>
            )}
            <div className="min-w-0">
              <p className="truncate font-semibold" data-testid="mini-title">
                {song?.title ?? 'Nothing playing'}
              </p>
              <p className="truncate text-sm text-muted" data-testid="mini-artist">
                {song?.artist ?? 'Pick a track in your Library'}
              </p>
            </div>
          </div>
          <SeekBar />
          <div className="my-2">
            <TransportControls />
          </div>
          <VolumeControl />
          <Link
            to="/now-playing"
            className="mt-3 block rounded-md border border-line px-3 py-2 text-center text-sm text-primary hover:border-primary"
          >
            Open Now Playing
          </Link>
        </section>
      ) : (
        <button
          type="button"
          onClick={() => setExpanded(true)}
          aria-label={song ? `Open player: ${song.title}` : 'Open player'}
          aria-expanded="false"
          data-testid="floating-player"
          className={
            `flex size-(--floating-player-size) items-center justify-center rounded-full border border-primary ` +
            `bg-panel text-primary neon-box ${isPlaying ? 'animate-pulse' : ''}`
          }
        >
          <Icon name={isPlaying ? 'headphones' : 'music'} size={24} />
        </button>
      )}
    </div>
  )
}
