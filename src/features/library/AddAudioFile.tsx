import { useId, useState } from 'react'
import { formatDuration } from '../../lib/catalogue/song.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { idbAudioUrl, putAudio } from '../../lib/user-audio-store.ts'
import { checkUploadFile, trackNameFromFile } from '../../engine/upload-audio.ts'
import { decodeAt48k } from '../../engine/publish/publish-encode.ts'
import { Icon } from '../../ui/Icon.tsx'
import { ORIGIN_COVERS } from '../../domain/collection/save-to-library.ts'
import { useLibraryStore } from '../../domain/collection/library-store.ts'

export const UPLOADED_COVER = ORIGIN_COVERS.upload

/**
 * Adds an audio file the user owns (an exported mix, a recording, anything the browser decodes) to
 * the Library, stored on this device like generated tracks, so it can be played and published.
 */
export function AddAudioFile() {
  const inputId = useId()
  const [busy, setBusy] = useState(false)
  const add = async (file: File) => {
    setBusy(true)
    try {
      checkUploadFile(file)
      const seconds = (await decodeAt48k(file)).duration
      const id = `upload-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
      await putAudio(id, file)
      const title = trackNameFromFile(file.name)
      useLibraryStore.getState().addTrack({
        id,
        title,
        artist: 'Uploaded by you',
        duration: formatDuration(seconds),
        seconds,
        image: UPLOADED_COVER,
        audioUrl: idbAudioUrl(id),
      })
      notify.success(`Added “${title}” to your Library`)
    } catch (error) {
      notify.error(`Could not add the file: ${errorMessage(error)}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <label
      htmlFor={inputId}
      className={
        `flex cursor-pointer items-center gap-2 rounded-lg border border-primary px-3 py-2 text-sm text-primary ` +
        `hover:bg-primary/10 ${busy ? 'opacity-60' : ''}`
      }
    >
      <Icon name="upload" size={16} /> {busy ? 'Adding…' : 'Add audio file'}
      <input
        id={inputId}
        type="file"
        accept="audio/*,.wav,.mp3,.ogg,.opus,.flac,.m4a,.webm"
        className="sr-only"
        disabled={busy}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0]
          e.currentTarget.value = ''
          if (file) void add(file)
        }}
      />
    </label>
  )
}
