import { useCallback, useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { unlockAudio } from '../../../engine/audio-context.ts'
import { putMixerAudio } from '../../../engine/mixer-audio.ts'
import { UploadError, decodeUpload } from '../../../engine/upload-audio.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'

/** Upload Audio (picker or drop): decode with progress, then add a 'main' track; errors change nothing. */
export function useUpload() {
  const [progress, setProgress] = useState<{ name: string; value: number } | null>(null)
  const upload = useCallback(async (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      setProgress({ name: file.name, value: 0 })
      try {
        const ctx = await unlockAudio()
        const decoded = await decodeUpload(ctx, file, { onProgress: (value) => setProgress({ name: file.name, value }) })
        const audioId = `up-${crypto.randomUUID()}`
        putMixerAudio({ id: audioId, sampleRate: decoded.sampleRate, channels: decoded.channels })
        useMixerStore.getState().addTrack({ name: decoded.name, type: 'main', audioId, duration: decoded.duration })
        notify.success('Track added', { description: decoded.name })
      } catch (err) {
        if (err instanceof UploadError) notify.error(err.title, { description: err.message })
        else notify.error('Upload failed', { description: errorMessage(err) })
      }
    }
    setProgress(null)
  }, [])
  return { upload, progress }
}
