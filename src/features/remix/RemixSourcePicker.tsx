import { useMemo, useState } from 'react'
import { CATALOGUE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { inputClass } from '../../ui/form-ui.tsx'
import { useLibraryStore } from '../../domain/collection/library-store.ts'
import { pickSource } from './remix-service.ts'
import { useRemixStore } from './remix-store.ts'

/** Any catalogue song, any track of the user's Library, or an audio file from the device. */
export function RemixSourcePicker() {
  const userTracks = useLibraryStore((s) => s.userTracks)
  const current = useRemixStore((s) => s.source?.ref ?? '')
  const [fileError, setFileError] = useState<string | null>(null)
  const catalogueIds = useMemo(() => new Set(CATALOGUE_SONGS.map((s) => s.id)), [])
  const library = userTracks.filter((t) => !catalogueIds.has(t.id))
  const all = [...CATALOGUE_SONGS, ...library]

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <label className="block text-sm">
        Source track
        <select
          className={`${inputClass} mt-1`}
          value={all.some((s) => s.id === current) ? current : ''}
          data-testid="remix-source"
          onChange={(e) => {
            const song = all.find((s) => s.id === e.target.value)
            if (song) void pickSource({ ref: song.id, title: song.title, audioUrl: song.audioUrl, image: song.image })
          }}
        >
          <option value="" disabled>
            Pick a song to remix…
          </option>
          {library.length > 0 && (
            <optgroup label="Your Library">
              {library.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title} · {s.artist}
                </option>
              ))}
            </optgroup>
          )}
          <optgroup label="Catalogue">
            {CATALOGUE_SONGS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title} · {s.artist}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      <label className="block text-sm">
        …or an audio file from your device
        <input
          type="file"
          accept="audio/*,.mp3,.wav,.ogg,.webm,.m4a,.flac"
          className={`${inputClass} mt-1`}
          data-testid="remix-file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (!file) return
            if (file.size > 500 * 1024 * 1024) {
              setFileError('This file is larger than 500 MB: pick a shorter track')
              return
            }
            setFileError(null)
            const title = file.name.replace(/\.[^.]+$/, '').slice(0, 80) || 'Untitled'
            void pickSource({ ref: `file:${file.name}`.slice(0, 200), title, file })
          }}
        />
        {fileError && (
          <span role="alert" className="text-red-400">
            {fileError}
          </span>
        )}
      </label>
    </div>
  )
}
