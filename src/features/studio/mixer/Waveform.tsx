import { useEffect, useRef, useState } from 'react'
import { computePeaks, type ChannelPeaks } from '../../../engine/workers.ts'
import { getMixerAudio, onMixerAudio } from '../../../engine/mixer-audio.ts'
import { clearTrackCanvas } from '../../../ui/track-canvas.ts'

export const BUCKETS = 800
const peaksCache = new Map<string, Promise<ChannelPeaks[]>>()

/** The first channel's peaks of a mixer audio (computed once per audio, in the peaks worker). */
export function peaksFor(audioId: string): Promise<ChannelPeaks[]> | null {
  const cached = peaksCache.get(audioId)
  if (cached) return cached
  const audio = getMixerAudio(audioId)
  if (!audio) return null
  const p = computePeaks(audio.channels.slice(0, 1), BUCKETS)
  peaksCache.set(audioId, p)
  p.catch(() => peaksCache.delete(audioId))
  return p
}

/** The audio's peaks once the worker has them (null until then, or when the audio is missing). */
export function usePeaks(audioId: string): ChannelPeaks[] | null {
  const [peaks, setPeaks] = useState<{ audioId: string; peaks: ChannelPeaks[] } | null>(null)
  useEffect(() => {
    let alive = true
    const load = () => peaksFor(audioId)?.then((p) => alive && setPeaks({ audioId, peaks: p }))
    // Audio not here yet (an instrument track's render on its way): drawn when it arrives.
    const off = load() ? () => {} : onMixerAudio((id) => id === audioId && void load())
    return () => {
      alive = false
      off()
    }
  }, [audioId])
  return peaks?.audioId === audioId ? peaks.peaks : null
}

/**
 * A track's waveform placed on the mix timeline (peaks from the peaks worker, drawn on a canvas),
 * with the shared playhead (CSS variable --playhead on an ancestor, 0..1 of the timeline).
 * Clicking seeks.
 */
export function Waveform({
  audioId,
  offset,
  duration,
  timeline,
  muted,
  label,
  onSeek,
}: {
  audioId: string
  offset: number
  duration: number
  timeline: number
  muted: boolean
  label: string
  onSeek: (seconds: number) => void
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const peaks = usePeaks(audioId)

  useEffect(() => {
    const canvas = canvasRef.current
    if (!canvas || !peaks) return
    const dpr = window.devicePixelRatio || 1
    const paint = clearTrackCanvas(canvas, canvas.clientWidth * dpr, canvas.clientHeight * dpr, muted)
    if (!paint) return
    const { g, w, h } = paint
    const span = timeline > 0 ? timeline : duration
    const x0 = (offset / span) * w
    const x1 = ((offset + duration) / span) * w
    const { min, max } = peaks[0]!
    const mid = h / 2
    for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
      const b = Math.min(BUCKETS - 1, Math.max(0, Math.floor(((x - x0) / (x1 - x0)) * BUCKETS)))
      const top = mid - max[b]! * mid
      const bottom = mid - min[b]! * mid
      g.fillRect(x, top, 1, Math.max(1, bottom - top))
    }
  }, [peaks, offset, duration, timeline, muted])

  return (
    <div className="relative h-14 w-full overflow-hidden rounded bg-bg/70">
      <canvas
        ref={canvasRef}
        className="h-full w-full cursor-pointer"
        role="img"
        aria-label={`Waveform of ${label}`}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect()
          onSeek(((e.clientX - r.left) / r.width) * (timeline || duration))
        }}
      />
      <div
        aria-hidden
        className="pointer-events-none absolute inset-y-0 w-0.5 bg-accent shadow-[0_0_6px_var(--theme-accent)]"
        style={{ left: 'calc(var(--playhead, 0) * 100%)' }}
      />
    </div>
  )
}
