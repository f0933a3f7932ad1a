import { useEffect, useMemo } from 'react'
import { Link, useLocation, useParams } from 'react-router-dom'
import type { Song } from '../../lib/catalogue/song.ts'
import { Icon } from '../../ui/Icon.tsx'
import { HeartToggle } from '../../ui/HeartToggle.tsx'
import { NotFound } from '../../ui/NotFound.tsx'
import { Slot } from '../../ui/slots.tsx'
import { SongSummary } from '../../ui/SongSummary.tsx'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { catalogueArtist, genreLabel } from '../../domain/collection/song-index.ts'
import { PublicShell } from './PublicShell.tsx'

function ArtistSongRow({ song }: { song: Song }) {
  const isPlaying = usePlayerStore((s) => s.isPlaying && s.currentSong?.id === song.id)
  const liked = usePlaylistStore(selectIsFavourite(song.id))
  const play = () => {
    const player = usePlayerStore.getState()
    if (player.currentSong?.id === song.id) player.togglePlay()
    else player.playSong(song)
  }
  return (
    <li className="flex items-center gap-2 rounded-lg border border-line bg-panel/80 px-3 py-2 sm:gap-3">
      <button
        type="button"
        onClick={play}
        aria-label={`${isPlaying ? 'Pause' : 'Play'} ${song.title}`}
        className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary text-bg"
      >
        <Icon name={isPlaying ? 'pause' : 'play'} size={16} />
      </button>
      <SongSummary song={song} />
      <Link
        to={`/song/${song.id}`}
        className="hidden text-xs text-muted hover:text-primary sm:inline"
        aria-label={`${song.title}: song page`}
      >
        Song page
      </Link>
      <HeartToggle liked={liked} onToggle={() => usePlaylistStore.getState().toggleFavourite(song)} label={`Like ${song.title}`} />
      <Slot name="AddToPlaylistMenu" song={song} />
      <button
        type="button"
        onClick={() => usePlayerStore.getState().addToQueue(song)}
        aria-label={`Add ${song.title} to queue`}
        className="rounded p-1.5 text-muted hover:text-primary"
      >
        <Icon name="plus" size={16} />
      </button>
    </li>
  )
}

/** /artist/{slug}: a catalogue artist's page with every song of theirs (creators have /user/{name}). */
export default function ArtistPage() {
  const { slug = '' } = useParams()
  const { pathname } = useLocation()
  const artist = useMemo(() => catalogueArtist(slug), [slug])
  useEffect(() => {
    if (artist) document.title = `${artist.name} · CUBE Music`
  }, [artist])
  if (!artist) return <NotFound pathname={pathname} />
  const genres = [...new Set(artist.songs.map((s) => s.genre).filter((g): g is string => !!g))].map(genreLabel)
  const playAll = () => {
    const player = usePlayerStore.getState()
    const [first, ...rest] = artist.songs
    player.playSong(first!)
    for (const song of rest) player.addToQueue(song)
  }
  return (
    <PublicShell>
      <div className="flex flex-col gap-6">
        <section
          className="panel flex flex-col gap-3 p-6 sm:flex-row sm:items-center"
          aria-labelledby="artist-name"
          data-testid="artist-page"
        >
          <div className="min-w-0 flex-1 space-y-1">
            <p className="text-sm tracking-widest text-muted uppercase">Artist · {genres.join(', ')}</p>
            <h1 id="artist-name" className="font-display text-3xl font-bold break-words text-primary neon-text">
              {artist.name}
            </h1>
            <p className="text-sm text-muted">
              {artist.songs.length} {artist.songs.length === 1 ? 'song' : 'songs'} in the CUBE Music catalogue
            </p>
          </div>
          <button
            type="button"
            onClick={playAll}
            className="inline-flex items-center gap-2 rounded-md bg-primary px-5 py-2 font-semibold text-bg"
          >
            <Icon name="play" size={16} /> Play all
          </button>
        </section>
        <section className="panel p-6" aria-labelledby="artist-songs">
          <h2 id="artist-songs" className="font-display text-xl font-bold text-accent">
            Songs
          </h2>
          <ul className="mt-3 flex flex-col gap-2" aria-label={`Songs by ${artist.name}`}>
            {artist.songs.map((song) => (
              <ArtistSongRow key={song.id} song={song} />
            ))}
          </ul>
        </section>
      </div>
    </PublicShell>
  )
}
