import { useEffect, useMemo, useState, type FormEvent } from 'react'
import {
  FAVORITES_ID,
  MAX_PLAYLIST_NAME,
  PLAYLIST_NAME_TOO_LONG,
  playlistNameProblem,
  selectIsFavourite,
  usePlaylistStore,
  type Playlist,
} from '../../domain/collection/playlist-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useSongIndex } from '../../domain/collection/song-index.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { Icon } from '../../ui/Icon.tsx'
import { HeartToggle } from '../../ui/HeartToggle.tsx'
import { SongSummary } from '../../ui/SongSummary.tsx'
import { SongPicker } from '../../ui/SongPicker.tsx'
import { limitedInputProps } from '../../ui/limited-input.ts'
import { OfflineToggle } from './OfflineToggle.tsx'

const nameInput = limitedInputProps(MAX_PLAYLIST_NAME, PLAYLIST_NAME_TOO_LONG)

function PlaylistSongRow({ playlist, song }: { playlist: Playlist; song: Song }) {
  const liked = usePlaylistStore(selectIsFavourite(song.id))
  return (
    <li className="flex items-center gap-2 rounded-md border border-line px-2 py-2 sm:gap-3 sm:px-3">
      <button
        type="button"
        onClick={() => usePlayerStore.getState().playSong(song)}
        aria-label={`Play ${song.title}`}
        className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-primary text-bg"
      >
        <Icon name="play" size={14} />
      </button>
      <SongSummary song={song} />
      <HeartToggle
        liked={liked}
        onToggle={() => usePlaylistStore.getState().toggleFavourite(song)}
        label={`Favourite ${song.title}`}
        className="rounded p-1"
      />
      <button
        type="button"
        onClick={() => usePlayerStore.getState().addToQueue(song)}
        aria-label={`Add ${song.title} to queue`}
        className="rounded p-1 text-muted hover:text-primary"
      >
        <Icon name="plus" size={16} />
      </button>
      <button
        type="button"
        onClick={() => usePlaylistStore.getState().removeSong(playlist.id, song.id)}
        aria-label={`Remove ${song.title} from ${playlist.name}`}
        className="rounded p-1 text-muted hover:text-secondary"
      >
        <Icon name="trash" size={16} />
      </button>
    </li>
  )
}

function PlaylistDetail({ playlist }: { playlist: Playlist }) {
  // Every song the listener can play: the catalogue, published songs, their own tracks.
  const index = useSongIndex()
  const library = useMemo(() => index.map((e) => e.song), [index])
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(playlist.name)
  const [songId, setSongId] = useState('')
  const inPlaylist = new Set(playlist.songs.map((s) => s.id))

  const submitRename = (e: FormEvent) => {
    e.preventDefault()
    if (usePlaylistStore.getState().renamePlaylist(playlist.id, name)) setRenaming(false)
  }

  const addSelected = (e: FormEvent) => {
    e.preventDefault()
    const song = library.find((s) => s.id === songId)
    if (song && usePlaylistStore.getState().addSong(playlist.id, song)) setSongId('')
  }

  return (
    <section aria-labelledby="playlist-detail-title" className="panel min-w-0 p-4">
      <div className="flex flex-wrap items-center gap-2">
        {renaming ? (
          <form onSubmit={submitRename} className="flex flex-1 flex-wrap items-center gap-2">
            <label className="flex-1">
              <span className="sr-only">Playlist name</span>
              <input
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                {...nameInput}
                // eslint-disable-next-line jsx-a11y/no-autofocus -- shown by the user's Rename click: focus follows them into the field
                autoFocus
                className="w-full rounded border border-line bg-bg px-2 py-1 text-fg"
              />
            </label>
            <button type="submit" className="rounded bg-primary px-3 py-1 text-sm font-semibold text-bg">
              Save
            </button>
            <button
              type="button"
              onClick={() => (setRenaming(false), setName(playlist.name))}
              className="rounded border border-line px-3 py-1 text-sm"
            >
              Cancel
            </button>
          </form>
        ) : (
          <>
            <h2
              id="playlist-detail-title"
              title={playlist.name}
              data-testid="playlist-detail-name"
              className="min-w-0 flex-1 truncate font-display text-xl font-bold text-primary"
            >
              {playlist.name}
            </h2>
            {playlist.id !== FAVORITES_ID && (
              <button
                type="button"
                onClick={() => (setName(playlist.name), setRenaming(true))}
                className="inline-flex items-center gap-1 rounded border border-line px-3 py-1 text-sm hover:border-primary"
              >
                <Icon name="edit" size={14} /> Rename
              </button>
            )}
            {playlist.id !== FAVORITES_ID && (
              <button
                type="button"
                onClick={() => usePlaylistStore.getState().deletePlaylist(playlist.id)}
                className={
                  'inline-flex items-center gap-1 rounded border border-line px-3 py-1 text-sm text-secondary ' + 'hover:border-secondary'
                }
              >
                <Icon name="trash" size={14} /> Delete
              </button>
            )}
          </>
        )}
      </div>
      <p className="mt-1 text-sm text-muted">
        {playlist.songs.length} {playlist.songs.length === 1 ? 'track' : 'tracks'}
      </p>
      <OfflineToggle playlist={playlist} />

      {playlist.songs.length === 0 ? (
        <p className="mt-4 text-sm text-muted">No tracks yet. Add one below or from the Library.</p>
      ) : (
        <ol className="mt-4 space-y-2" aria-label={`Tracks in ${playlist.name}`}>
          {playlist.songs.map((s) => (
            <PlaylistSongRow key={s.id} playlist={playlist} song={s} />
          ))}
        </ol>
      )}

      <form onSubmit={addSelected} className="mt-4">
        <SongPicker
          songs={library}
          value={songId}
          onChange={setSongId}
          label="Track to add"
          placeholder="Choose a track to add…"
          optionSuffix={(s) => (inPlaylist.has(s.id) ? ' (in playlist)' : '')}
        >
          <button
            type="submit"
            disabled={!songId}
            className="rounded bg-primary px-3 py-1.5 text-sm font-semibold text-bg disabled:opacity-40"
          >
            Add track
          </button>
        </SongPicker>
      </form>
    </section>
  )
}

export default function PlaylistsPage() {
  const playlists = usePlaylistStore((s) => s.playlists)
  const signedIn = useSessionStore((s) => s.user !== null)
  const [selectedId, setSelectedId] = useState<string>(FAVORITES_ID)
  const [newName, setNewName] = useState('')
  const selected = playlists.find((p) => p.id === selectedId) ?? playlists[0]

  useEffect(() => {
    document.title = 'Playlists · CUBE Music'
  }, [])

  const [createError, setCreateError] = useState<string | null>(null)
  const create = (e: FormEvent) => {
    e.preventDefault()
    setCreateError(playlistNameProblem(newName))
    const p = usePlaylistStore.getState().createPlaylist(newName)
    if (p) {
      setNewName('')
      setSelectedId(p.id)
    }
  }

  return (
    <section className="mx-auto max-w-6xl p-4 md:p-6">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">Playlists</h1>
      <p className="mt-1 text-muted">
        {signedIn ? 'Saved to your account.' : 'Saved on this device. Log in to keep them in your account.'}
      </p>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-4">
          <form onSubmit={create} className="panel flex flex-col gap-2 p-4">
            <label htmlFor="new-playlist-name" className="text-sm font-semibold">
              New playlist name
            </label>
            <input
              id="new-playlist-name"
              value={newName}
              onChange={(e) => setNewName(e.currentTarget.value)}
              {...nameInput}
              placeholder="e.g. Night Drive"
              aria-invalid={createError ? true : undefined}
              aria-describedby={createError ? 'new-playlist-error' : undefined}
              className="rounded border border-line bg-bg px-2 py-1.5 text-fg placeholder:text-muted"
            />
            {createError && (
              <p id="new-playlist-error" role="alert" className="text-xs text-amber-300">
                {createError}
              </p>
            )}
            <button
              type="submit"
              className="inline-flex items-center justify-center gap-1 rounded bg-primary px-3 py-1.5 text-sm font-semibold text-bg"
            >
              <Icon name="plus" size={14} /> Create playlist
            </button>
          </form>
          <nav aria-label="Your playlists">
            <ul className="flex flex-col gap-2">
              {playlists.map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    onClick={() => setSelectedId(p.id)}
                    aria-current={selected?.id === p.id ? 'true' : undefined}
                    title={p.name}
                    className={
                      `flex w-full items-center justify-between rounded-lg border px-3 py-2 text-left ` +
                      `${
                        selected?.id === p.id
                          ? 'border-primary bg-primary/10 text-primary'
                          : 'border-line bg-panel/80 ' + 'hover:border-primary'
                      }`
                    }
                  >
                    <span className="flex min-w-0 items-center gap-2 truncate">
                      <Icon name={p.id === FAVORITES_ID ? 'heart' : 'music'} size={16} />
                      <span className="min-w-0 truncate">{p.name}</span>
                    </span>
                    <span className="shrink-0 text-xs text-muted">{p.songs.length}</span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        {selected && <PlaylistDetail key={selected.id} playlist={selected} />}
      </div>
    </section>
  )
}
