import { useState } from 'react'
import { downloadFile } from '../../lib/download-file.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { encodeForPublishing } from '../../engine/publish/publish-encode.ts'
import { Icon } from '../../ui/Icon.tsx'
import type { GeneratedTrack } from './generated-track.ts'

/** Opus at this rate is transparent for the generator's music and about a tenth of the WAV's size. */
export const COMPRESSED_KBPS = 128

/** A file name of the title's own words. */
export const trackFileName = (title: string, extension: string) =>
  `${
    title
      .replace(/[^\p{L}\p{N}\- ]+/gu, '')
      .replace(/\s+/g, ' ')
      .trim() || 'CUBE track'
  }.${extension}`

/** Download the generated track: the WAV as rendered, or Opus in WebM (encoded on the device). */
export function DownloadTrack({ track, className = '' }: { track: GeneratedTrack; className?: string }) {
  const [encoding, setEncoding] = useState(false)
  const compressed = async () => {
    setEncoding(true)
    try {
      const { blob } = await encodeForPublishing(track.wav, COMPRESSED_KBPS)
      downloadFile(blob, trackFileName(track.title, 'webm'))
    } catch (err) {
      notify.error('Could not make the compressed file', { description: errorMessage(err) })
    } finally {
      setEncoding(false)
    }
  }
  return (
    <div className={`flex flex-wrap items-center gap-2 ${className}`} role="group" aria-label="Download">
      <button
        type="button"
        onClick={() => downloadFile(track.wav, trackFileName(track.title, 'wav'))}
        className="inline-flex items-center gap-2 rounded-md border border-line px-3 py-2 text-sm font-semibold"
      >
        <Icon name="download" /> Download WAV
      </button>
      <button
        type="button"
        onClick={() => void compressed()}
        disabled={encoding}
        className="inline-flex items-center gap-2 rounded-md border border-line px-3 py-2 text-sm font-semibold disabled:opacity-50"
      >
        <Icon name="download" /> {encoding ? 'Encoding…' : 'Download Opus (smaller)'}
      </button>
    </div>
  )
}
