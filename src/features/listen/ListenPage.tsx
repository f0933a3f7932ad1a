import { useState } from 'react'
import { Link } from 'react-router-dom'
import type { Song } from '../../lib/catalogue/song.ts'
import { Icon } from '../../ui/Icon.tsx'
import { HeartToggle } from '../../ui/HeartToggle.tsx'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { Slot } from '../../ui/slots.tsx'
import { StatsPanel } from './ListenStats.tsx'

const LIST_SIZE = 8
import { useRecommendations } from './useRecommendations.ts'
import { SimpleTabs } from '../../ui/SimpleTabs.tsx'

function SongMenu({ song }: { song: Song }) {
  const [open, setOpen] = useState(false)
  return (
    <div className="relative">
      <button
        type="button"
        aria-label={`More for ${song.title}`}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="rounded p-1.5 text-muted hover:text-primary"
      >
        <Icon name="menu" size={16} />
      </button>
      {open && (
        <div className="absolute right-0 z-20 mt-1 flex w-44 flex-col gap-1 rounded-md border border-line bg-panel p-2 shadow-lg">
          <button
            type="button"
            className="rounded px-2 py-1 text-left text-sm hover:bg-primary/10"
            onClick={() => (usePlayerStore.getState().addToQueue(song), setOpen(false))}
          >
            Add to Queue
          </button>
          <div className="flex items-center justify-between px-2 text-sm">
            Add to Playlist <Slot name="AddToPlaylistMenu" song={song} />
          </div>
        </div>
      )}
    </div>
  )
}

function SongRow({ song, index }: { song: Song; index: number }) {
  const liked = usePlaylistStore(selectIsFavourite(song.id))
  const play = () => {
    const player = usePlayerStore.getState()
    player.addToQueue(song)
    player.playSong(song)
  }
  return (
    <li
      className="flex items-center gap-2 rounded-lg border border-line bg-panel/80 px-3 py-2 sm:gap-3"
      data-testid="rec-row"
      data-song-id={song.id}
      data-genre={song.genre}
    >
      {/* At 375 px the rank and the reward badge leave the row's line to the title (once cut to one letter). */}
      <span className="hidden w-5 text-right text-sm text-muted tabular-nums sm:inline">{index + 1}</span>
      <img src={song.image} alt="" className="h-10 w-10 shrink-0 rounded border border-line object-cover" />
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold" data-testid="rec-title">
          {song.title}
        </p>
        <p className="truncate text-sm text-muted">
          {song.artist}
          <span className="ml-1 text-xs font-bold text-accent sm:hidden"> · +{song.reward} CUBE</span>
        </p>
      </div>
      <span
        className="hidden shrink-0 rounded-full bg-accent/15 px-2 py-0.5 text-xs font-bold text-accent sm:inline"
        data-testid="rec-reward"
      >
        +{song.reward} CUBE
      </span>
      <span className="hidden text-sm text-muted tabular-nums sm:inline">{song.duration}</span>
      <HeartToggle liked={liked} onToggle={() => usePlaylistStore.getState().toggleFavourite(song)} label={`Like ${song.title}`} />
      <SongMenu song={song} />
      <button
        type="button"
        onClick={play}
        aria-label={`Play ${song.title}`}
        className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary text-bg"
      >
        <Icon name="play" size={16} />
      </button>
    </li>
  )
}

/** One server-ranked list; the button asks again with a new salt (Refresh / Shuffle New). */
function RecommendationList({
  mode,
  title,
  action,
  testId,
}: {
  mode: 'daily' | 'discover'
  title: string
  action: string
  testId: string
}) {
  const { songs, error, refresh } = useRecommendations(mode, LIST_SIZE)
  return (
    <section aria-labelledby={`${testId}-title`} className="flex flex-col gap-2" data-testid={testId}>
      <div className="flex items-center justify-between">
        <h3 id={`${testId}-title`} className="font-bold">
          {title}
        </h3>
        <button
          type="button"
          onClick={refresh}
          className="flex items-center gap-1 rounded-md border border-line px-3 py-1 text-sm hover:border-primary"
        >
          <Icon name={mode === 'daily' ? 'undo' : 'shuffle'} size={14} /> {action}
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-secondary">
          Could not load recommendations: {error}
        </p>
      )}
      {!songs && !error && <p className="text-sm text-muted">Loading…</p>}
      {songs && songs.length === 0 && <p className="text-sm text-muted">Nothing to recommend yet.</p>}
      {songs && (
        <ol className="flex flex-col gap-2">
          {songs.map((s, i) => (
            <SongRow key={s.id} song={s} index={i} />
          ))}
        </ol>
      )}
    </section>
  )
}

function PlaylistsTab() {
  const playlists = usePlaylistStore((s) => s.playlists)
  const [name, setName] = useState('')
  const create = () => {
    const created = usePlaylistStore.getState().createPlaylist(name.trim() || `Playlist ${playlists.length}`)
    if (created) setName('')
  }
  return (
    <div className="flex flex-col gap-3">
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {playlists.map((p) => (
          <li key={p.id} className="panel flex flex-col gap-1 p-3" data-testid="listen-playlist">
            <Link to="/app/playlists" className="font-semibold hover:text-primary">
              {p.name}
            </Link>
            <p className="text-xs text-muted">
              {p.songs.length} {p.songs.length === 1 ? 'track' : 'tracks'}
            </p>
            <p className="truncate text-sm text-muted">
              {p.songs
                .slice(0, 3)
                .map((s) => s.title)
                .join(' · ') || 'Empty'}
            </p>
          </li>
        ))}
        <li className="panel flex flex-col gap-2 border-dashed p-3">
          <p className="font-semibold">Create New Playlist</p>
          <label className="sr-only" htmlFor="listen-new-playlist">
            Playlist name
          </label>
          <input
            id="listen-new-playlist"
            value={name}
            maxLength={80}
            onChange={(e) => setName(e.target.value)}
            placeholder="Playlist name"
            className="rounded-md border border-line bg-bg/60 px-2 py-1 text-sm"
          />
          <button
            type="button"
            onClick={create}
            className="flex items-center justify-center gap-1 rounded-md bg-primary px-3 py-1.5 text-sm font-semibold text-bg"
          >
            <Icon name="plus" size={14} /> New Playlist
          </button>
        </li>
      </ul>
      <Link to="/app/library" className="self-start text-sm font-semibold text-primary hover:underline">
        View All Tracks
      </Link>
    </div>
  )
}

const LISTEN_TABS = [
  { key: 'recommendations', label: 'Recommendations' },
  { key: 'playlists', label: 'Your Playlists' },
] as const

export default function ListenPage() {
  const [tab, setTab] = useState<'recommendations' | 'playlists'>('recommendations')
  const status = useSessionStore((s) => s.status)
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-bold neon-text">Listen to Earn</h1>
      <StatsPanel />
      <SimpleTabs tabs={LISTEN_TABS} value={tab} onChange={setTab} label="Listen to Earn" idPrefix="listen" />
      <div role="tabpanel" id={`listen-panel-${tab}`} aria-labelledby={`listen-tab-${tab}`} className="flex flex-col gap-6">
        {tab === 'recommendations' ? (
          <>
            {status === 'signed-out' && (
              <p className="text-sm text-muted">Popular this week. Sign in for recommendations from your listening, likes and follows.</p>
            )}
            <RecommendationList mode="daily" title="Daily Recommendations" action="Refresh" testId="daily-recs" />
            <RecommendationList mode="discover" title="Random Discoveries" action="Shuffle New" testId="discoveries" />
          </>
        ) : (
          <PlaylistsTab />
        )}
      </div>
    </div>
  )
}
