import { memo, useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { clipGainAt, isLooped, regionLength, sourceTimeAt, type Clip } from '../../../engine/arrangement/clip.ts'
import { BUCKETS, usePeaks } from '../mixer/Waveform.tsx'
import type { DragKind } from './clip-drag.ts'
import { arrangedNotes } from '../../../engine/instruments/arranged-notes.ts'
import { clearTrackCanvas } from '../../../ui/track-canvas.ts'
import type { Instrument } from '../../../engine/instruments/note-track.ts'

/**
 * One clip on a lane: its waveform (the region repeated where it loops, shaped by its gain and
 * fades), or an instrument track's notes as the clip plays them (a MIDI clip); edge handles to
 * trim, a loop handle at the top right, fade handles along the top.
 * Pointer and keyboard input go up to the lane (Timeline.tsx), which owns the edit.
 */
export const ClipBlock = memo(function ClipBlock({
  clip,
  audioId,
  duration,
  notes,
  zoom,
  trackName,
  selected,
  peer = null,
  muted,
  onPointerDown,
  onKeyDown,
  onFocus,
}: {
  clip: Clip
  audioId: string
  duration: number
  /** An instrument track's notes and the tempo: drawn instead of the render's waveform. */
  notes?: { instrument: Instrument; bpm: number }
  zoom: number
  trackName: string
  selected: boolean
  /** Another creator in the live session who has this clip selected: outlined in their colour. */
  peer?: { name: string; colour: string } | null
  muted: boolean
  onPointerDown: (e: PointerEvent<HTMLElement>, kind: DragKind, clip: Clip) => void
  onKeyDown: (e: KeyboardEvent<HTMLElement>, clip: Clip) => void
  onFocus: (clip: Clip) => void
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const peaks = usePeaks(audioId)
  const width = Math.max(2, clip.length * zoom)
  const looped = isLooped(clip)

  useEffect(() => {
    const canvas = canvasRef.current
    if (!canvas || !notes) return
    const paint = clearTrackCanvas(canvas, Math.min(4096, width), canvas.clientHeight || 40, muted)
    if (!paint) return
    const { g, w, h } = paint
    const played = arrangedNotes({ id: 'clip', offset: 0, duration, clips: [clip], instrument: notes.instrument }, notes.bpm)
    if (played.length === 0) return
    // The clip's own key range fills its height (with a little room), a row per semitone at most 6 px.
    const low = Math.min(...played.map((n) => n.key))
    const high = Math.max(...played.map((n) => n.key))
    const row = Math.min(6, (h - 14) / (high - low + 1))
    const top = 12 + (h - 14 - row * (high - low + 1)) / 2
    const x = (beats: number) => (((beats * 60) / notes.bpm - clip.start) / clip.length) * w
    for (const n of played)
      g.fillRect(x(n.start), top + (high - n.key) * row, Math.max(1, x(n.start + n.length) - x(n.start) - 1), Math.max(1, row - 1))
  }, [notes, clip, duration, width, muted])

  useEffect(() => {
    const canvas = canvasRef.current
    if (!canvas || !peaks || duration <= 0 || notes) return
    // Wide clips are drawn at most 4,096 px wide and stretched: enough detail at any zoom, bounded cost.
    const paint = clearTrackCanvas(canvas, Math.min(4096, width), canvas.clientHeight || 40, muted)
    if (!paint) return
    const { g, w, h } = paint
    const { min, max } = peaks[0]!
    const mid = h / 2
    for (let x = 0; x < w; x++) {
      const t = ((x + 0.5) / w) * clip.length
      const b = Math.min(BUCKETS - 1, Math.max(0, Math.floor((sourceTimeAt(clip, t) / duration) * BUCKETS)))
      const gain = Math.min(1, clipGainAt(clip, t))
      const top = mid - max[b]! * mid * gain
      const bottom = mid - min[b]! * mid * gain
      g.fillRect(x, top, 1, Math.max(1, bottom - top))
    }
  }, [peaks, clip, duration, width, muted, notes])

  const down = (kind: DragKind) => (e: PointerEvent<HTMLElement>) => {
    e.stopPropagation()
    onPointerDown(e, kind, clip)
  }
  const region = regionLength(clip)
  const label =
    `${trackName} clip at ${clip.start.toFixed(2)} s, ${clip.length.toFixed(2)} s ` +
    `long${looped ? `, looping ${region.toFixed(2)} s` : ''}${peer ? `, selected by ${peer.name}` : ''}`

  return (
    <div
      role="button"
      tabIndex={0}
      aria-label={label}
      aria-pressed={selected}
      data-testid="clip"
      data-clip-id={clip.id}
      data-start={clip.start}
      data-length={clip.length}
      data-peer={peer?.name}
      className={
        `absolute inset-y-1 touch-none overflow-hidden rounded border bg-primary/10 outline-none ` +
        `${selected ? 'border-accent shadow-[0_0_8px_var(--theme-accent)]' : 'border-primary/60'} focus-visible:ring-2 ` +
        `focus-visible:ring-accent`
      }
      style={{ left: clip.start * zoom, width, ...(peer && { outline: `2px solid ${peer.colour}`, outlineOffset: 1 }) }}
      onPointerDown={down('move')}
      onKeyDown={(e) => onKeyDown(e, clip)}
      onFocus={() => onFocus(clip)}
    >
      <canvas ref={canvasRef} aria-hidden className="pointer-events-none h-full w-full" />
      {looped &&
        Array.from({ length: Math.min(64, Math.floor((clip.phase + clip.length) / region - 1e-9)) }, (_, i) => (
          // A mark where each repetition of the region begins.
          <span
            key={i}
            aria-hidden
            className="pointer-events-none absolute inset-y-0 w-px bg-accent/60"
            style={{ left: ((i + 1) * region - clip.phase) * zoom }}
          />
        ))}
      <span aria-hidden className="pointer-events-none absolute left-1 top-0.5 max-w-[calc(100%-1rem)] truncate text-[10px] text-fg/80">
        {trackName}
      </span>
      <span
        aria-hidden
        data-handle="start"
        title="Trim start"
        className="absolute inset-y-0 left-0 w-1.5 cursor-ew-resize bg-primary/40 hover:bg-accent"
        onPointerDown={down('start')}
      />
      <span
        aria-hidden
        data-handle="end"
        title="Trim end"
        className="absolute bottom-0 right-0 top-3 w-1.5 cursor-ew-resize bg-primary/40 hover:bg-accent"
        onPointerDown={down('end')}
      />
      <span
        aria-hidden
        data-handle="loop"
        title="Drag to loop"
        className="absolute right-0 top-0 h-3 w-3 cursor-e-resize rounded-bl bg-accent/80"
        onPointerDown={down('loop')}
      />
      <span
        aria-hidden
        data-handle="fade-in"
        title="Fade in"
        className="absolute top-0 h-2 w-2 -translate-x-1/2 cursor-ew-resize rounded-full border border-fg bg-bg"
        style={{ left: Math.max(4, clip.fadeIn * zoom) }}
        onPointerDown={down('fadeIn')}
      />
      <span
        aria-hidden
        data-handle="fade-out"
        title="Fade out"
        className="absolute top-0 h-2 w-2 translate-x-1/2 cursor-ew-resize rounded-full border border-fg bg-bg"
        style={{ right: Math.max(14, clip.fadeOut * zoom) }}
        onPointerDown={down('fadeOut')}
      />
    </div>
  )
})
