import { Link } from 'react-router-dom'
import type { Song } from '../../lib/catalogue/song.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { rewardAmountFor, useRewardStore } from '../../domain/economy/reward-store.ts'
import { useRewardRules } from '../../domain/economy/reward-rules.ts'
import { deleteOwnTrack } from '../../domain/collection/creation-sync.ts'
import { Icon } from '../../ui/Icon.tsx'
import { HeartToggle } from '../../ui/HeartToggle.tsx'
import { Slot } from '../../ui/slots.tsx'

/**
 * One track in the Library, as a grid card or a list row: play, like, add to playlist, add to queue,
 * and for the user's own tracks publish and delete; the artist's name links to their page when they have one.
 */
export function TrackCard({
  song,
  layout,
  ownTrack = false,
  artistHref = null,
}: {
  song: Song
  layout: 'grid' | 'list'
  ownTrack?: boolean
  artistHref?: string | null
}) {
  const isCurrent = usePlayerStore((s) => s.currentSong?.id === song.id)
  const isPlaying = usePlayerStore((s) => s.isPlaying && s.currentSong?.id === song.id)
  const liked = usePlaylistStore(selectIsFavourite(song.id))
  const rules = useRewardRules((s) => s.rules)
  const reward = useRewardStore((s) => rewardAmountFor(song, s.credited, rules))

  const play = () => {
    const st = usePlayerStore.getState()
    if (isCurrent) st.togglePlay()
    else st.playSong(song)
  }

  const actions = (
    <div className="flex items-center gap-1">
      <HeartToggle
        liked={liked}
        onToggle={() => usePlaylistStore.getState().toggleFavourite(song)}
        label={`Like ${song.title}`}
        size={18}
      />
      <Slot name="AddToPlaylistMenu" song={song} />
      {ownTrack && <Slot name="PublishButton" song={song} />}
      <button
        type="button"
        onClick={() => usePlayerStore.getState().addToQueue(song)}
        aria-label={`Add ${song.title} to queue`}
        title="Add to queue"
        className="rounded p-1.5 text-muted hover:text-primary"
      >
        <Icon name="plus" size={18} />
      </button>
      {ownTrack && (
        <button
          type="button"
          onClick={() => {
            if (window.confirm(`Delete “${song.title}” from this device and your account?`)) deleteOwnTrack(song)
          }}
          aria-label={`Delete ${song.title}`}
          title="Delete"
          className="rounded p-1.5 text-muted hover:text-red-400"
        >
          <Icon name="trash" size={18} />
        </button>
      )}
    </div>
  )

  const artist = artistHref ? (
    <Link to={artistHref} className="hover:text-primary hover:underline">
      {song.artist}
    </Link>
  ) : (
    song.artist
  )

  const playButton = (
    <button
      type="button"
      onClick={play}
      aria-label={`${isPlaying ? 'Pause' : 'Play'} ${song.title}`}
      className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary text-bg neon-box"
    >
      <Icon name={isPlaying ? 'pause' : 'play'} size={18} />
    </button>
  )

  if (layout === 'list') {
    return (
      <li
        data-testid="track-card"
        className={
          `flex items-center gap-3 rounded-lg border px-3 py-2 ` +
          `${isCurrent ? 'border-primary bg-primary/5' : 'border-line bg-panel/80'}`
        }
      >
        {playButton}
        <img src={song.image} alt="" className="h-11 w-11 rounded border border-line object-cover" />
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold">{song.title}</h3>
          <p className="truncate text-sm text-muted">{artist}</p>
        </div>
        <span className="hidden text-xs text-accent sm:inline">+{reward} CUBE</span>
        <span className="text-sm text-muted tabular-nums">{song.duration}</span>
        {actions}
      </li>
    )
  }

  return (
    <li data-testid="track-card" className={`panel flex flex-col overflow-visible p-3 ${isCurrent ? 'border-primary' : ''}`}>
      <div className="relative">
        {/* A wide crop on a phone, where one card fills the row: the first song's play button and
            title then show on the first screen, below the page's tools. Square where cards sit side by side. */}
        <img
          src={song.image}
          alt={`Cover of ${song.title}`}
          className="aspect-[2/1] w-full rounded-md border border-line object-cover sm:aspect-square"
        />
        <div className="absolute right-2 bottom-2">{playButton}</div>
        <span className="absolute top-2 left-2 rounded-full bg-bg/80 px-2 py-0.5 text-xs font-bold text-accent">+{reward} CUBE</span>
      </div>
      <h3 className="mt-3 truncate font-semibold">{song.title}</h3>
      <p className="truncate text-sm text-muted">{artist}</p>
      <div className="mt-2 flex items-center justify-between">
        <span className="text-xs text-muted tabular-nums">{song.duration}</span>
        {actions}
      </div>
    </li>
  )
}
