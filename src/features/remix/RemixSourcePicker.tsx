import { useMemo, useState } from 'react'
import { inputClass } from '../../ui/form-ui.tsx'
import { SongPicker } from '../../ui/SongPicker.tsx'
import { useSongIndex } from '../../domain/collection/song-index.ts'
import { pickSource } from './remix-service.ts'
import { useRemixStore } from './remix-store.ts'

/** Any song the listener can play (catalogue, published, their own Library), or an audio file from the device. */
export function RemixSourcePicker() {
  const index = useSongIndex()
  const all = useMemo(() => index.map((e) => e.song), [index])
  const current = useRemixStore((s) => s.source?.ref ?? '')
  const [fileError, setFileError] = useState<string | null>(null)

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="block text-sm">
        <SongPicker
          songs={all}
          value={all.some((s) => s.id === current) ? current : ''}
          onChange={(id) => {
            const song = all.find((s) => s.id === id)
            if (song) void pickSource({ ref: song.id, title: song.title, audioUrl: song.audioUrl, image: song.image })
          }}
          label="Source track"
          labelVisible
          placeholder="Pick a song to remix…"
          selectClassName={`${inputClass} mt-1`}
          testId="remix-source"
        />
      </div>
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
