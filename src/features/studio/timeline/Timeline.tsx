import { memo, useCallback, useEffect, useMemo, useRef, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { mixDuration, type MixerTrack } from '../../../engine/mixer-model.ts'
import { trackClips, type Clip } from '../../../engine/arrangement/clip.ts'
import { duplicateClip, gridSeconds, moveClip, removeClip, splitClip } from '../../../engine/arrangement/clip-edits.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { ClipBlock } from './ClipBlock.tsx'
import { ClipInspector } from './ClipInspector.tsx'
import { dragClips, type DragKind } from './clip-drag.ts'
import { instrumentSpan } from '../../../engine/instruments/note-track.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { RemotePlayheads } from '../presence/RemotePlayheads.tsx'
import { PeerTag } from '../presence/PeerTag.tsx'
import { usePeerClips, usePeersOnTrack } from '../presence/peer-hooks.ts'

const DRAG_LABELS: Record<DragKind, string> = {
  move: 'Move clip',
  start: 'Trim clip',
  end: 'Trim clip',
  loop: 'Loop clip',
  fadeIn: 'Clip fade in',
  fadeOut: 'Clip fade out',
}
import { Ruler } from './Ruler.tsx'
import { TimelineToolbar } from './TimelineToolbar.tsx'
import { newClipId, pinchZoom, useTimelineStore } from './timeline-store.ts'

const LANE_HEIGHT = 52
/** What a lane says while a shared project's audio is on its way. */
const AUDIO_COMING = { fetching: 'Fetching audio…', waiting: 'Audio still uploading…', failed: 'Audio not reached: trying again' } as const
/** Pointer travel (px) below which a press on a clip only selects it. */
const DRAG_THRESHOLD = 3

interface Drag {
  kind: DragKind
  track: MixerTrack
  clips: Clip[]
  clipId: string
  x0: number
  moved: boolean
  latest: Clip[] | null
  frame: number
}

/**
 * The arrangement: a ruler in bars/beats and seconds, one lane per track with its clips, the
 * playhead. Drag a clip to move it (snapping to the grid), its edges to trim, its top-right handle
 * to loop, its top dots to fade. On a focused clip: ←/→ move by the grid step, Shift+←/→ trim its
 * end, S splits at the playhead, Ctrl/⌘+D duplicates, Delete removes, + and - zoom. Ctrl/⌘ + wheel
 * (or a trackpad pinch, which the browser reports as one) zooms around the pointer.
 */
export function Timeline({ onSeek }: { onSeek: (seconds: number) => void }) {
  const tracks = useMixerStore((s) => s.tracks)
  const tempo = useMixerStore((s) => s.tempo)
  const zoom = useTimelineStore((s) => s.zoom)
  const scroller = useRef<HTMLDivElement>(null)
  const playhead = useRef<HTMLDivElement>(null)
  const drag = useRef<Drag | null>(null)
  const bar = gridSeconds('bar', tempo)
  const session = useLiveSessionStore((s) => s.session)
  // Room after the last clip to drag into (four bars), and never less than eight bars.
  const length = Math.max(mixDuration({ tracks }) + 4 * bar, 8 * bar)

  // In a live session the others see which clip this creator has selected.
  useEffect(() => {
    if (!session) return
    const share = () => session.share({ clip: useTimelineStore.getState().selected })
    share()
    return useTimelineStore.subscribe((s, before) => s.selected !== before.selected && share())
  }, [session])

  // Playhead and follow: an animation-frame loop writing a transform, no React renders.
  useEffect(() => {
    let raf = 0
    let lastX = Number.NaN
    const tick = () => {
      const { zoom: z, follow } = useTimelineStore.getState()
      const x = mixerEngine.position() * z
      // Only a moved playhead is written: a paused timeline costs no style work per frame.
      if (playhead.current && x !== lastX) playhead.current.style.transform = `translateX(${(lastX = x)}px)`
      const el = scroller.current
      if (el && follow && mixerEngine.isPlaying() && (x < el.scrollLeft || x > el.scrollLeft + el.clientWidth - 24))
        el.scrollLeft = Math.max(0, x - 24)
      raf = requestAnimationFrame(tick)
    }
    raf = requestAnimationFrame(tick)
    return () => cancelAnimationFrame(raf)
  }, [])

  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    if (!(e.ctrlKey || e.metaKey)) return
    e.preventDefault()
    const el = e.currentTarget
    const r = el.getBoundingClientRect()
    const at = (el.scrollLeft + e.clientX - r.left) / zoom
    useTimelineStore.getState().zoomBy(Math.exp(-e.deltaY * 0.002))
    // Keep the time under the pointer where it was.
    el.scrollLeft = Math.max(0, at * useTimelineStore.getState().zoom - (e.clientX - r.left))
  }

  // A touch screen's two-finger pinch zooms (a trackpad pinch arrives as Ctrl + wheel, above).
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const touches = new Map<number, number>()
    let start: { spread: number; zoom: number } | null = null
    const spread = () => {
      const xs = [...touches.values()]
      return xs.length === 2 ? Math.abs(xs[0]! - xs[1]!) : 0
    }
    const down = (e: globalThis.PointerEvent) => {
      if (e.pointerType !== 'touch') return
      touches.set(e.pointerId, e.clientX)
      if (touches.size === 2) start = { spread: spread(), zoom: useTimelineStore.getState().zoom }
    }
    const move = (e: globalThis.PointerEvent) => {
      if (!touches.has(e.pointerId)) return
      touches.set(e.pointerId, e.clientX)
      if (start && touches.size === 2) useTimelineStore.getState().setZoom(pinchZoom(start.zoom, start.spread, spread()))
    }
    const up = (e: globalThis.PointerEvent) => {
      touches.delete(e.pointerId)
      if (touches.size < 2) start = null
    }
    el.addEventListener('pointerdown', down)
    el.addEventListener('pointermove', move)
    el.addEventListener('pointerup', up)
    el.addEventListener('pointercancel', up)
    return () => {
      el.removeEventListener('pointerdown', down)
      el.removeEventListener('pointermove', move)
      el.removeEventListener('pointerup', up)
      el.removeEventListener('pointercancel', up)
    }
  }, [])

  // React's wheel listeners are passive; zooming must stop the page from zooming/scrolling too.
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const stop = (e: globalThis.WheelEvent) => {
      if (e.ctrlKey || e.metaKey) e.preventDefault()
    }
    el.addEventListener('wheel', stop, { passive: false })
    return () => el.removeEventListener('wheel', stop)
  }, [])

  const onPointerDown = useCallback((e: PointerEvent<HTMLElement>, kind: DragKind, clip: Clip) => {
    if (e.button !== 0) return
    const track = useMixerStore.getState().tracks.find((t) => trackClips(t).some((c) => c.id === clip.id))
    if (!track) return
    useTimelineStore.getState().select({ trackId: track.id, clipId: clip.id })
    const d: Drag = { kind, track, clips: [...trackClips(track)], clipId: clip.id, x0: e.clientX, moved: false, latest: null, frame: 0 }
    drag.current = d
    const move = (ev: globalThis.PointerEvent) => {
      if (!d.moved && Math.abs(ev.clientX - d.x0) < DRAG_THRESHOLD) return
      d.moved = true
      const { snap, zoom: z } = useTimelineStore.getState()
      d.latest = dragClips(
        d.kind,
        {
          clips: d.clips,
          clipId: d.clipId,
          duration: d.track.duration,
          snap,
          bpm: useMixerStore.getState().tempo,
          loopRegionEnd: d.track.instrument ? (instrumentSpan(d.track.instrument.notes) * 60) / useMixerStore.getState().tempo : undefined,
        },
        (ev.clientX - d.x0) / z,
      )
      // One preview per frame however fast the pointer reports.
      if (!d.frame)
        d.frame = requestAnimationFrame(() => {
          d.frame = 0
          if (d.latest) useTimelineStore.getState().setPreview({ trackId: d.track.id, clips: d.latest })
        })
    }
    const up = () => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
      window.removeEventListener('pointercancel', up)
      if (d.frame) cancelAnimationFrame(d.frame)
      drag.current = null
      if (d.moved && d.latest) {
        const edited = d.latest
        useMixerStore.getState().editClips(d.track.id, () => edited, { label: DRAG_LABELS[d.kind] })
      }
      useTimelineStore.getState().setPreview(null)
    }
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
    window.addEventListener('pointercancel', up)
  }, [])

  const onClipKey = useCallback((e: KeyboardEvent<HTMLElement>, clip: Clip) => {
    const store = useMixerStore.getState()
    const track = store.tracks.find((t) => trackClips(t).some((c) => c.id === clip.id))
    if (!track) return
    const { snap } = useTimelineStore.getState()
    const step = gridSeconds(snap, store.tempo) || 0.1
    const edit = (label: string, fn: (clips: Clip[], duration: number) => Clip[]) => {
      e.preventDefault()
      store.editClips(track.id, fn, { label })
    }
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const dir = e.key === 'ArrowLeft' ? -1 : 1
      if (e.shiftKey)
        edit('Trim clip', (clips, d) => dragClips('end', { clips, clipId: clip.id, duration: d, snap, bpm: store.tempo }, dir * step))
      else edit('Move clip', (clips, d) => moveClip(clips, clip.id, Math.max(0, clip.start + dir * step), d))
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      edit('Delete clip', (clips) => removeClip(clips, clip.id))
      useTimelineStore.getState().select(null)
    } else if ((e.key === 'd' || e.key === 'D') && (e.ctrlKey || e.metaKey)) {
      const id = newClipId()
      edit('Duplicate clip', (clips, d) => duplicateClip(clips, clip.id, d, id))
      useTimelineStore.getState().select({ trackId: track.id, clipId: id })
    } else if ((e.key === 's' || e.key === 'S') && !e.ctrlKey && !e.metaKey) {
      edit('Split clip', (clips, d) => splitClip(clips, clip.id, mixerEngine.position(), d, newClipId()))
    } else if (e.key === '+' || e.key === '=') {
      e.preventDefault()
      useTimelineStore.getState().zoomIn()
    } else if (e.key === '-') {
      e.preventDefault()
      useTimelineStore.getState().zoomOut()
    }
  }, [])

  const onClipFocus = useCallback((clip: Clip) => {
    const track = useMixerStore.getState().tracks.find((t) => trackClips(t).some((c) => c.id === clip.id))
    if (track) useTimelineStore.getState().select({ trackId: track.id, clipId: clip.id })
  }, [])

  return (
    <section aria-labelledby="arrangement-heading" className="panel p-4" data-testid="timeline">
      <TimelineToolbar />
      <div
        ref={scroller}
        className="relative mt-3 touch-pan-x overflow-x-auto overflow-y-hidden rounded border border-line bg-bg/60"
        role="region"
        aria-label="Arrangement timeline"
        data-testid="timeline-scroller"
        onWheel={onWheel}
      >
        <div className="relative" style={{ width: length * zoom }}>
          <Ruler length={length} zoom={zoom} bpm={tempo} onSeek={onSeek} />
          {tracks.map((t) => (
            <Lane key={t.id} track={t} zoom={zoom} onPointerDown={onPointerDown} onKeyDown={onClipKey} onFocus={onClipFocus} />
          ))}
          <div
            ref={playhead}
            aria-hidden
            data-testid="timeline-playhead"
            className="pointer-events-none absolute inset-y-0 left-0 w-0.5 bg-accent shadow-[0_0_6px_var(--theme-accent)]"
          />
          <RemotePlayheads zoom={zoom} />
        </div>
      </div>
      <ClipInspector />
    </section>
  )
}

const Lane = memo(function Lane({
  track,
  zoom,
  onPointerDown,
  onKeyDown,
  onFocus,
}: {
  track: MixerTrack
  zoom: number
  onPointerDown: (e: PointerEvent<HTMLElement>, kind: DragKind, clip: Clip) => void
  onKeyDown: (e: KeyboardEvent<HTMLElement>, clip: Clip) => void
  onFocus: (clip: Clip) => void
}) {
  const preview = useTimelineStore((s) => (s.preview?.trackId === track.id ? s.preview.clips : null))
  const selectedId = useTimelineStore((s) => (s.selected?.trackId === track.id ? s.selected.clipId : null))
  const own = useMemo(() => trackClips(track), [track])
  const clips = preview ?? own
  const tempo = useMixerStore((s) => s.tempo)
  const here = usePeersOnTrack(track.id)
  const coming = useLiveSessionStore((s) => (track.instrument ? undefined : s.audio[track.audioId]))
  const peerClips = usePeerClips(track.id)
  return (
    <div
      role="group"
      aria-label={`${track.name} lane`}
      className="relative border-b border-line/60"
      style={{ height: LANE_HEIGHT, boxShadow: here[0] ? `inset 3px 0 0 ${here[0].colour}` : undefined }}
      data-testid="timeline-lane"
    >
      {(coming === 'fetching' || coming === 'waiting' || coming === 'failed') && (
        <span role="status" className="pointer-events-none absolute right-1 top-0.5 z-10 text-[10px] text-muted" data-testid="lane-audio">
          {AUDIO_COMING[coming]}
        </span>
      )}
      {here.length > 0 && (
        <div className="pointer-events-none absolute bottom-0.5 left-1 z-10 flex gap-1" aria-label={`Also on ${track.name}`}>
          {here.map((p) => (
            <PeerTag key={p.clientId} peer={p} testId="peer-on-lane" />
          ))}
        </div>
      )}
      {clips.map((c) => (
        <ClipBlock
          key={c.id}
          clip={c}
          audioId={track.audioId}
          duration={track.duration}
          notes={track.instrument ? { instrument: track.instrument, bpm: tempo } : undefined}
          zoom={zoom}
          trackName={track.name}
          selected={c.id === selectedId}
          peer={peerClips.get(c.id) ?? null}
          muted={!track.enabled}
          onPointerDown={onPointerDown}
          onKeyDown={onKeyDown}
          onFocus={onFocus}
        />
      ))}
    </div>
  )
})
