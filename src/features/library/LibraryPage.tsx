import { useEffect, useMemo, useState } from 'react'
import { useLibraryStore, selectAllSongs } from '../../domain/collection/library-store.ts'
import { TrackCard } from './TrackCard.tsx'
import { filterSongs, GENRE_CHIPS, type GenreChip } from './library-filter.ts'
import { Icon } from '../../ui/Icon.tsx'
import { AddAudioFile } from './AddAudioFile.tsx'
import { AutoSaveSetting } from './AutoSaveSetting.tsx'
import { Slot } from '../../ui/slots.tsx'

export default function LibraryPage() {
  const userTracks = useLibraryStore((s) => s.userTracks)
  const view = useLibraryStore((s) => s.view)
  const setView = useLibraryStore((s) => s.setView)
  const [query, setQuery] = useState('')
  const [chip, setChip] = useState<GenreChip>('All')
  const songs = useMemo(() => selectAllSongs({ userTracks }), [userTracks])
  const shown = useMemo(() => filterSongs(songs, query, chip), [songs, query, chip])
  const ownIds = useMemo(() => new Set(userTracks.map((t) => t.id)), [userTracks])

  useEffect(() => {
    document.title = 'Your Library · CUBE Music'
  }, [])

  return (
    <section className="mx-auto max-w-6xl p-4 md:p-6">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">Your Library</h1>
      <p className="mt-1 text-muted">Every listen earns CUBE. {songs.length} tracks.</p>
      <AutoSaveSetting />

      <div className="mt-5 flex flex-wrap items-center gap-3">
        <label className="relative min-w-56 flex-1">
          <span className="sr-only">Search your library</span>
          <Icon name="search" size={16} className="absolute top-1/2 left-3 -translate-y-1/2 text-muted" />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            placeholder="Search tracks or artists"
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

      <div role="group" aria-label="Filter by genre" className="mt-4 flex flex-wrap gap-2">
        {GENRE_CHIPS.map((g) => (
          <button
            key={g}
            type="button"
            onClick={() => setChip(g)}
            aria-pressed={chip === g}
            className={
              `rounded-full border px-4 py-1 text-sm ` +
              `${chip === g ? 'border-primary bg-primary/15 text-primary' : 'border-line text-muted hover:text-fg'}`
            }
          >
            {g}
          </button>
        ))}
      </div>

      <Slot name="PublishedSection" />

      {shown.length === 0 ? (
        <p className="mt-8 text-muted" role="status">
          No tracks match{query ? ` "${query}"` : ''}
          {chip !== 'All' ? ` in ${chip}` : ''}.
        </p>
      ) : (
        <ul
          data-testid="track-list"
          data-layout={view}
          aria-label="Tracks"
          className={view === 'grid' ? 'mt-6 grid grid-cols-[repeat(auto-fill,minmax(12rem,1fr))] gap-4' : 'mt-6 flex flex-col gap-2'}
        >
          {shown.map((song) => (
            <TrackCard key={song.id} song={song} layout={view} ownTrack={ownIds.has(song.id)} />
          ))}
        </ul>
      )}
    </section>
  )
}
