import { useId, useState, type ReactNode } from 'react'
import type { Song } from '../lib/catalogue/song.ts'
import { searchSongs } from '../lib/catalogue/song-search.ts'

/** Above this many songs the picker offers a search field that narrows its options. */
export const PICKER_SEARCH_FROM = 12

/**
 * A song chooser for forms (add to a playlist, mint, remix): a native select whose options read
 * "Title — Artist", with a search field above it (title, artist, genre; case and accents ignored)
 * once the list is long. The chosen song stays among the options whatever the search.
 */
export function SongPicker({
  songs,
  value,
  onChange,
  label,
  placeholder,
  optionSuffix,
  selectClassName,
  testId,
  labelVisible = false,
  children,
}: {
  songs: readonly Song[]
  value: string
  onChange: (id: string) => void
  /** The select's accessible name (visually hidden unless labelVisible). */
  label: string
  /** The empty choice ("Choose a track to add…"). */
  placeholder: string
  optionSuffix?: (song: Song) => string
  selectClassName?: string
  testId?: string
  /** Show the label above the select (otherwise only screen readers read it). */
  labelVisible?: boolean
  /** Shown beside the select (e.g. the form's submit button). */
  children?: ReactNode
}) {
  const [query, setQuery] = useState('')
  const selectId = useId()
  const found = searchSongs(songs, query)
  const chosen = songs.find((s) => s.id === value)
  const options = chosen && !found.includes(chosen) ? [chosen, ...found] : found
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-2">
      {songs.length > PICKER_SEARCH_FROM && (
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          // Not the select's label: a form's label ("Track to add") must name the select alone.
          aria-label="Search songs"
          aria-controls={selectId}
          placeholder={`Search ${songs.length} songs by title, artist or genre`}
          className="w-full rounded border border-line bg-bg px-2 py-1.5 text-sm text-fg placeholder:text-muted"
        />
      )}
      <div className="flex flex-wrap items-center gap-2">
        <label className="min-w-0 flex-1">
          <span className={labelVisible ? 'mb-1 block' : 'sr-only'}>{label}</span>
          <select
            id={selectId}
            value={value}
            onChange={(e) => onChange(e.currentTarget.value)}
            data-testid={testId}
            className={selectClassName ?? 'w-full rounded border border-line bg-bg px-2 py-1.5 text-fg'}
          >
            <option value="">{query && found.length === 0 ? `No song matches "${query}"` : placeholder}</option>
            {options.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title} — {s.artist}
                {optionSuffix?.(s) ?? ''}
              </option>
            ))}
          </select>
        </label>
        {children}
      </div>
    </div>
  )
}
