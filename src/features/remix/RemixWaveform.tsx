import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { formatDuration } from '../../lib/catalogue/song.ts'

/**
 * The preview's waveform: peaks, playhead and loop region. Click seeks; dragging selects a loop
 * region; arrow keys seek by 5 s (it is a slider for assistive technology).
 */
export function RemixWaveform({ peaks, duration, position, loop, onSeek, onLoop }: {
  peaks: Float32Array | null
  duration: number
  position: number
  loop: { start: number; end: number } | null
  onSeek: (seconds: number) => void
  onLoop: (region: { start: number; end: number } | null) => void
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const drag = useRef<{ from: number; moved: boolean } | null>(null)

  useEffect(() => {
    const c = canvas.current
    const g = c?.getContext('2d')
    if (!c || !g) return
    const w = (c.width = c.clientWidth * devicePixelRatio)
    const h = (c.height = c.clientHeight * devicePixelRatio)
    const styles = getComputedStyle(c)
    g.clearRect(0, 0, w, h)
    if (loop && duration > 0) {
      g.fillStyle = 'rgba(255, 0, 170, 0.18)'
      g.fillRect((loop.start / duration) * w, 0, ((loop.end - loop.start) / duration) * w, h)
    }
    if (peaks && peaks.length) {
      const played = duration > 0 ? position / duration : 0
      const primary = styles.getPropertyValue('--color-primary').trim() || '#00f0ff'
      for (let i = 0; i < peaks.length; i++) {
        const x = (i / peaks.length) * w
        const bar = Math.max(1, peaks[i]! * h * 0.9)
        g.fillStyle = i / peaks.length <= played ? primary : 'rgba(160, 160, 190, 0.55)'
        g.fillRect(x, (h - bar) / 2, Math.max(1, w / peaks.length - 0.5), bar)
      }
    }
    if (duration > 0) {
      g.fillStyle = '#ffffff'
      g.fillRect((position / duration) * w - 1, 0, 2, h)
    }
  }, [peaks, duration, position, loop])

  const at = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect()
    return Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)) * duration
  }
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') onSeek(Math.min(duration, position + 5))
    else if (e.key === 'ArrowLeft') onSeek(Math.max(0, position - 5))
    else return
    e.preventDefault()
  }

  return (
    <canvas
      ref={canvas}
      role="slider"
      tabIndex={0}
      aria-label="Preview position (drag to select a loop region)"
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(position)}
      aria-valuetext={`${formatDuration(position)} of ${formatDuration(duration)}`}
      data-testid="remix-waveform"
      className="h-24 w-full cursor-pointer rounded-md bg-bg/60 touch-none"
      onKeyDown={onKey}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId)
        drag.current = { from: at(e), moved: false }
      }}
      onPointerMove={(e) => {
        const d = drag.current
        if (!d) return
        const t = at(e)
        if (Math.abs(t - d.from) > duration / 200) {
          d.moved = true
          onLoop({ start: Math.min(d.from, t), end: Math.max(d.from, t) })
        }
      }}
      onPointerUp={(e) => {
        const d = drag.current
        drag.current = null
        if (!d) return
        if (!d.moved) onSeek(at(e))
      }}
    />
  )
}
