import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { formatDuration } from '../../lib/catalogue/song.ts'
import { dragRegion, formatLoop, markLoop, MIN_DRAG_PX, timeAt } from './loop-region.ts'

/**
 * The preview's waveform: peaks, playhead and loop region. Click seeks; dragging (at least
 * MIN_DRAG_PX) selects a loop region; arrow keys seek by 5 s (it is a slider for assistive
 * technology). The drawn playhead and region are also data attributes (seconds), for tests.
 */
export function RemixWaveform({
  peaks,
  duration,
  position,
  loop,
  onSeek,
  onLoop,
}: {
  peaks: Float32Array | null
  duration: number
  position: number
  loop: { start: number; end: number } | null
  onSeek: (seconds: number) => void
  onLoop: (region: { start: number; end: number } | null) => void
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const drag = useRef<{ fromX: number; moved: boolean } | null>(null)

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

  const x = (e: PointerEvent<HTMLCanvasElement>) => e.clientX - e.currentTarget.getBoundingClientRect().left
  const width = (e: PointerEvent<HTMLCanvasElement>) => e.currentTarget.getBoundingClientRect().width
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') onSeek(Math.min(duration, position + 5))
    else if (e.key === 'ArrowLeft') onSeek(Math.max(0, position - 5))
    else if (e.key === '[' || e.key === ']') onLoop(markLoop(loop, e.key === '[' ? 'start' : 'end', position, duration))
    else if (e.key === 'Escape' && loop) onLoop(null)
    else return
    e.preventDefault()
  }

  return (
    <canvas
      ref={canvas}
      role="slider"
      tabIndex={0}
      aria-label="Preview position (drag, or press [ and ] at the playhead, to loop a region; Escape clears it)"
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(position)}
      aria-valuetext={`${formatDuration(position)} of ${formatDuration(duration)}${loop ? `, ${formatLoop(loop).toLowerCase()}` : ''}`}
      data-testid="remix-waveform"
      data-position={position.toFixed(3)}
      data-loop-start={loop?.start.toFixed(3)}
      data-loop-end={loop?.end.toFixed(3)}
      className="h-24 w-full cursor-pointer rounded-md bg-bg/60 touch-none"
      onKeyDown={onKey}
      onPointerDown={(e) => {
        if (e.button !== 0) return
        e.currentTarget.setPointerCapture(e.pointerId)
        drag.current = { fromX: x(e), moved: false }
      }}
      onPointerMove={(e) => {
        const d = drag.current
        if (!d) return
        const toX = x(e)
        if (!d.moved && Math.abs(toX - d.fromX) < MIN_DRAG_PX) return
        d.moved = true
        onLoop(dragRegion(d.fromX, toX, width(e), duration))
      }}
      onPointerUp={(e) => {
        const d = drag.current
        drag.current = null
        if (d && !d.moved) onSeek(timeAt(x(e), width(e), duration))
      }}
      onPointerCancel={() => {
        drag.current = null
      }}
    />
  )
}
