import { useRef, useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { getAudioContext } from '../../../engine/audio-context.ts'
import { exportMixWav } from '../../../engine/offline-mix.ts'
import { exportStemsZip } from '../../../engine/stem-export.ts'
import type { WavFormat } from '../../../engine/workers.ts'
import { mixerSnapshot, useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { errorMessage } from '../../../lib/error-message.ts'
import { offerToLibrary } from '../offer-to-library.ts'
import { downloadFile } from '../../../lib/download-file.ts'
import { instrumentsRendered } from '../../../domain/studio/instrument-renders.ts'

/**
 * Export: offline render of the mix → WAV in the worker (16-bit, or 32-bit float: the render's
 * samples exactly), with progress and cancel, then download. Export stems: every track through its
 * own strip, one WAV each in a ZIP (src/engine/stem-export.ts), in the same format.
 */
export function ExportButton() {
  const hasTracks = useMixerStore((s) => s.tracks.length > 0)
  const projectName = useMixerStore((s) => s.project?.name ?? null)
  const [progress, setProgress] = useState<number | null>(null)
  const [format, setFormat] = useState<WavFormat>('pcm16')
  const abort = useRef<AbortController | null>(null)

  const baseName = (projectName ?? 'cube-mix').replace(/[^\w\- ]+/g, '').trim() || 'cube-mix'

  const run = async (kind: 'mix' | 'stems') => {
    const ac = new AbortController()
    abort.current = ac
    setProgress(0)
    try {
      // Instrument tracks are exported from their renders: any still being made is waited for.
      await instrumentsRendered()
      const options = {
        sampleRate: getAudioContext().sampleRate,
        format,
        onProgress: (f: number) => !ac.signal.aborted && setProgress(f),
        signal: ac.signal,
      }
      if (kind === 'stems') {
        downloadFile(await exportStemsZip(mixerSnapshot(), options), `${baseName} stems.zip`)
        notify.success('Stems exported', { description: 'One WAV per track, in a ZIP' })
        return
      }
      const blob = await exportMixWav(mixerSnapshot(), options)
      downloadFile(blob, `${baseName}.wav`)
      const title = `${projectName ?? 'Studio mix'} (Mix)`
      const seconds = (blob.size - 44) / ((format === 'pcm16' ? 2 : 4) * 2) / getAudioContext().sampleRate
      offerToLibrary(
        { idPrefix: 'mix', title, artist: 'Exported from the studio', blob, seconds, origin: 'export' },
        'Mix exported',
        'Downloaded',
      )
    } catch (err) {
      if ((err as { name?: string }).name === 'AbortError') notify('Export cancelled')
      else notify.error('Export failed', { description: errorMessage(err) })
    } finally {
      abort.current = null
      setProgress(null)
    }
  }

  if (progress !== null)
    return (
      <div className="flex items-center gap-2" data-testid="export-progress">
        <div
          role="progressbar"
          aria-label="Export progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
          className="h-2 w-32 overflow-hidden rounded bg-line"
        >
          <div className="h-full bg-primary transition-[width]" style={{ width: `${progress * 100}%` }} />
        </div>
        <span className="w-10 font-mono text-xs">{Math.round(progress * 100)}%</span>
        <button
          type="button"
          onClick={() => abort.current?.abort()}
          className="rounded border border-secondary px-3 py-1.5 text-sm text-secondary"
        >
          Cancel export
        </button>
      </div>
    )
  return (
    <div className="flex items-center">
      <button
        type="button"
        disabled={!hasTracks}
        onClick={() => void run('mix')}
        className="flex items-center gap-2 rounded-l border border-line px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50"
      >
        <Icon name="download" size={16} /> Export WAV
      </button>
      <button
        type="button"
        disabled={!hasTracks}
        onClick={() => void run('stems')}
        title="One WAV per track, each through its own channel strip, in a ZIP"
        className="border border-l-0 border-line px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50"
      >
        Export stems
      </button>
      <select
        aria-label="Export format"
        value={format}
        onChange={(e) => setFormat(e.currentTarget.value as WavFormat)}
        className="rounded-r border border-l-0 border-line bg-bg px-2 py-1.5 text-sm text-fg"
      >
        <option value="pcm16">16-bit</option>
        <option value="float32">32-bit float</option>
      </select>
    </div>
  )
}
