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

/** Ids of clips the user creates (split, duplicate). */
export const newClipId = (): string => `clip-${crypto.randomUUID()}`

export interface ClipRef {
  trackId: string
  clipId: string
}

interface TimelineStore {
  /** Pixels per second of timeline. */
  zoom: number
  snap: SnapGrid
  follow: boolean
  selected: ClipRef | null
  /** A track's clips while one of them is being dragged (what the lane shows until release). */
  preview: { trackId: string; clips: Clip[] } | null
  zoomBy: (factor: number) => void
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
  zoomBy: (factor) => set({ zoom: Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, get().zoom * factor)) }),
  zoomIn: () => get().zoomBy(ZOOM_STEP),
  zoomOut: () => get().zoomBy(1 / ZOOM_STEP),
  setSnap: (snap) => set({ snap }),
  setFollow: (follow) => set({ follow }),
  select: (selected) => set({ selected }),
  setPreview: (preview) => set({ preview }),
}))
