/**
 * The arrangement view's own state (not part of the project): zoom, snap grid, follow-playhead,
 * the selected clip and the clip being dragged. A drag edits a preview here and reaches the mixer
 * store (so the engine, undo and autosave) once, when the pointer is released.
 */
import { create } from 'zustand'
import type { Clip } from '../../../engine/arrangement/clip.ts'
import type { SnapGrid } from '../../../engine/arrangement/clip-edits.ts'

export const MIN_ZOOM = 8
export const MAX_ZOOM = 480
export const DEFAULT_ZOOM = 48
const ZOOM_STEP = 1.5

/**
 * Two-finger pinch: the zoom that keeps the fingers' spread in proportion (spread grew 2x → 2x the
 * pixels per second), bounded like every other zoom.
 */
export function pinchZoom(zoom: number, spreadBefore: number, spreadNow: number): number {
  if (!(spreadBefore > 0) || !(spreadNow > 0)) return zoom
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom * (spreadNow / spreadBefore)))
}

/** Ids of clips the user creates (split, duplicate). */
export const newClipId = (): string => `clip-${crypto.randomUUID()}`

export interface ClipRef {
  trackId: string
  clipId: string
}

/** The playback loop region in bars (1-based, `to` exclusive: bars 1 to 3 = the first two bars). */
export interface LoopBars {
  enabled: boolean
  fromBar: number
  toBar: number
}

export const MAX_BAR = 999

interface TimelineStore {
  /** Pixels per second of timeline. */
  zoom: number
  snap: SnapGrid
  follow: boolean
  selected: ClipRef | null
  /** A track's clips while one of them is being dragged (what the lane shows until release). */
  preview: { trackId: string; clips: Clip[] } | null
  loop: LoopBars
  setLoop: (loop: Partial<LoopBars>) => void
  /** Clicks on the beats while the mix plays. */
  metronome: boolean
  /** One bar of clicks before a recording starts (and the mix plays along from the playhead). */
  countIn: boolean
  setMetronome: (on: boolean) => void
  setCountIn: (on: boolean) => void
  zoomBy: (factor: number) => void
  setZoom: (zoom: number) => void
  zoomIn: () => void
  zoomOut: () => void
  setSnap: (snap: SnapGrid) => void
  setFollow: (follow: boolean) => void
  select: (ref: ClipRef | null) => void
  setPreview: (preview: TimelineStore['preview']) => void
}

export const useTimelineStore = create<TimelineStore>()((set, get) => ({
  zoom: DEFAULT_ZOOM,
  snap: 'beat',
  follow: true,
  selected: null,
  preview: null,
  loop: { enabled: false, fromBar: 1, toBar: 5 },
  metronome: false,
  countIn: false,
  setMetronome: (metronome) => set({ metronome }),
  setCountIn: (countIn) => set({ countIn }),
  setLoop: (change) => {
    const cur = get().loop
    const whole = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(Number.isFinite(v) ? v : lo)))
    let fromBar = whole(change.fromBar ?? cur.fromBar, 1, MAX_BAR - 1)
    let toBar = whole(change.toBar ?? cur.toBar, 2, MAX_BAR)
    // The region is at least one bar: the edge the user moved pushes the other one along.
    if (toBar <= fromBar) {
      if (change.toBar !== undefined && change.fromBar === undefined) fromBar = toBar - 1
      else toBar = fromBar + 1
    }
    set({ loop: { enabled: change.enabled ?? cur.enabled, fromBar, toBar } })
  },
  zoomBy: (factor) => set({ zoom: Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, get().zoom * factor)) }),
  setZoom: (zoom) => set({ zoom: Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom)) }),
  zoomIn: () => get().zoomBy(ZOOM_STEP),
  zoomOut: () => get().zoomBy(1 / ZOOM_STEP),
  setSnap: (snap) => set({ snap }),
  setFollow: (follow) => set({ follow }),
  select: (selected) => set({ selected }),
  setPreview: (preview) => set({ preview }),
}))
