import { useEffect, useMemo, useState } from 'react'
import { Link } from 'react-router-dom'
import { useLibraryStore } from '../../domain/collection/library-store.ts'
import { artistsOf, genreKey, genresOf, searchIndex, useSongIndex, type ArtistFacet } from '../../domain/collection/song-index.ts'
import { TrackCard } from './TrackCard.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { SimpleTabs } from '../../ui/SimpleTabs.tsx'
import { AddAudioFile } from './AddAudioFile.tsx'
import { AutoSaveSetting } from './AutoSaveSetting.tsx'
import { AccountStorage } from './AccountStorage.tsx'
import { Slot } from '../../ui/slots.tsx'

type Tab = 'songs' | 'genres' | 'artists'
const TABS = [
  { key: 'songs', label: 'Songs' },
  { key: 'genres', label: 'Genres' },
  { key: 'artists', label: 'Artists' },
] as const

const ALL = ''
const chipClass = (on: boolean) =>
  `shrink-0 whitespace-nowrap rounded-full border px-4 py-1 text-sm ` +
  `${on ? 'border-primary bg-primary/15 text-primary' : 'border-line text-muted hover:text-fg'}`
const tileClass =
  'flex w-full items-center justify-between gap-2 rounded-lg border border-line bg-panel/80 px-4 py-3 text-left hover:border-primary'

function ArtistTile({ artist, onPick }: { artist: ArtistFacet; onPick: (name: string) => void }) {
  const count = (
    <span className="shrink-0 text-xs text-muted">
      {artist.count} {artist.count === 1 ? 'song' : 'songs'}
    </span>
  )
  const name = (
    <span className="min-w-0 truncate font-semibold">
      {artist.name}
      {artist.source === 'published' && <span className="ml-2 text-xs font-normal text-accent">creator</span>}
    </span>
  )
  return artist.href ? (
    <Link to={artist.href} className={tileClass}>
      {name}
      {count}
    </Link>
  ) : (
    <button type="button" onClick={() => onPick(artist.name)} className={tileClass}>
      {name}
      {count}
    </button>
  )
}

/**
 * Every song the listener can play (the catalogue, published songs, their own tracks) from the one
 * song index: search by title, artist or genre, and browse by genre and by artist.
 */
export default function LibraryPage() {
  const index = useSongIndex()
  const view = useLibraryStore((s) => s.view)
  const setView = useLibraryStore((s) => s.setView)
  const [tab, setTab] = useState<Tab>('songs')
  const [query, setQuery] = useState('')
  const [genre, setGenre] = useState(ALL)
  const genres = useMemo(() => genresOf(index), [index])
  const artists = useMemo(() => artistsOf(index), [index])
  const shown = useMemo(() => {
    const inGenre = genre === ALL ? index : index.filter((e) => genreKey(e.song) === genre)
    return searchIndex(inGenre, query)
  }, [index, query, genre])
  const genreName = genres.find((g) => g.key === genre)?.label

  useEffect(() => {
    document.title = 'Your Library · CUBE Music'
  }, [])

  const browseGenre = (key: string) => {
    setGenre(key)
    setTab('songs')
  }
  const searchArtist = (name: string) => {
    setQuery(name)
    setGenre(ALL)
    setTab('songs')
  }

  return (
    <section className="mx-auto max-w-6xl p-4 md:p-6">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">Your Library</h1>
      <p className="mt-1 text-muted">Every listen earns CUBE. {index.length} songs to play.</p>
      <AutoSaveSetting />
      <AccountStorage />

      <div className="mt-5">
        <SimpleTabs tabs={TABS} value={tab} onChange={setTab} label="Browse the Library" idPrefix="library" />
      </div>

      {tab === 'genres' && (
        <div role="tabpanel" id="library-panel-genres" aria-labelledby="library-tab-genres" className="mt-4">
          <ul aria-label="Genres" className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-3">
            {genres.map((g) => (
              <li key={g.key}>
                <button type="button" onClick={() => browseGenre(g.key)} className={tileClass}>
                  <span className="font-semibold">{g.label}</span>
                  <span className="text-xs text-muted">
                    {g.count} {g.count === 1 ? 'song' : 'songs'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}

      {tab === 'artists' && (
        <div role="tabpanel" id="library-panel-artists" aria-labelledby="library-tab-artists" className="mt-4">
          <ul aria-label="Artists" className="grid grid-cols-[repeat(auto-fill,minmax(14rem,1fr))] gap-3">
            {artists.map((a) => (
              <li key={`${a.source}:${a.name}`}>
                <ArtistTile artist={a} onPick={searchArtist} />
              </li>
            ))}
          </ul>
        </div>
      )}

      {tab === 'songs' && (
        <div role="tabpanel" id="library-panel-songs" aria-labelledby="library-tab-songs">
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <label className="relative min-w-56 flex-1">
              <span className="sr-only">Search your library</span>
              <Icon name="search" size={16} className="absolute top-1/2 left-3 -translate-y-1/2 text-muted" />
              <input
                type="search"
                value={query}
                onChange={(e) => setQuery(e.currentTarget.value)}
                placeholder="Search songs, artists or genres"
                className="w-full rounded-lg border border-line bg-panel py-2 pr-3 pl-9 text-fg placeholder:text-muted focus:border-primary"
              />
            </label>
            <AddAudioFile />
            <div role="group" aria-label="Layout" className="flex overflow-hidden rounded-lg border border-line">
              <button
                type="button"
                onClick={() => setView('grid')}
                aria-pressed={view === 'grid'}
                aria-label="Grid view"
                className={`p-2 ${view === 'grid' ? 'bg-primary/20 text-primary' : 'text-muted'}`}
              >
                <Icon name="grid" />
              </button>
              <button
                type="button"
                onClick={() => setView('list')}
                aria-pressed={view === 'list'}
                aria-label="List view"
                className={`p-2 ${view === 'list' ? 'bg-primary/20 text-primary' : 'text-muted'}`}
              >
                <Icon name="list" />
              </button>
            </div>
          </div>

          {/* One row that scrolls sideways on a phone, so the songs start right below it; wrapped where there is room. */}
          <div
            role="group"
            aria-label="Filter by genre"
            data-testid="genre-chips"
            className="-mx-1 mt-4 flex gap-2 overflow-x-auto px-1 pb-1 [scrollbar-width:thin] md:flex-wrap md:overflow-visible"
          >
            <button type="button" onClick={() => setGenre(ALL)} aria-pressed={genre === ALL} className={chipClass(genre === ALL)}>
              All
            </button>
            {genres.map((g) => (
              <button
                key={g.key}
                type="button"
                onClick={() => setGenre(g.key)}
                aria-pressed={genre === g.key}
                className={chipClass(genre === g.key)}
              >
                {g.label}
              </button>
            ))}
          </div>

          <Slot name="PublishedSection" />

          <p className="mt-4 text-sm text-muted" role="status">
            {shown.length === 0
              ? `No tracks match${query ? ` "${query}"` : ''}${genreName ? ` in ${genreName}` : ''}.`
              : `${shown.length} ${shown.length === 1 ? 'song' : 'songs'}${genreName ? ` in ${genreName}` : ''}`}
          </p>
          {shown.length > 0 && (
            <ul
              data-testid="track-list"
              data-layout={view}
              aria-label="Tracks"
              className={view === 'grid' ? 'mt-3 grid grid-cols-[repeat(auto-fill,minmax(12rem,1fr))] gap-4' : 'mt-3 flex flex-col gap-2'}
            >
              {shown.map((e) => (
                <TrackCard key={e.song.id} song={e.song} layout={view} ownTrack={e.source === 'own'} artistHref={e.artistHref} />
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  )
}
