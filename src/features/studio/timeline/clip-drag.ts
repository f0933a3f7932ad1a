/**
 * What a pointer drag on a clip (or one of its handles) does, pure: the clip edits of
 * src/engine/arrangement/clip-edits.ts applied to the clips as they were when the drag began, at
 * the snapped pointer time. The timeline calls it on every pointer move with the total movement.
 */
import { clipEnd, type Clip } from '../../../engine/arrangement/clip.ts'
import {
  loopClipTo,
  moveClip,
  setClipFades,
  snapTime,
  trimClipEnd,
  trimClipStart,
  type SnapGrid,
} from '../../../engine/arrangement/clip-edits.ts'

export type DragKind = 'move' | 'start' | 'end' | 'loop' | 'fadeIn' | 'fadeOut'

export interface DragContext {
  clips: Clip[]
  clipId: string
  duration: number
  snap: SnapGrid
  bpm: number
  /**
   * Where a loop's region ends at most: an instrument track's last bar (its render runs a tail of
   * releases past it), so looping its clip repeats whole bars, as a MIDI clip loops in any DAW.
   */
  loopRegionEnd?: number
}

export function dragClips(kind: DragKind, ctx: DragContext, deltaSeconds: number): Clip[] {
  const c = ctx.clips.find((x) => x.id === ctx.clipId)
  if (!c) return ctx.clips
  const snap = (t: number) => snapTime(t, ctx.snap, ctx.bpm)
  switch (kind) {
    case 'move':
      return moveClip(ctx.clips, c.id, snap(c.start + deltaSeconds), ctx.duration)
    case 'start':
      return trimClipStart(ctx.clips, c.id, snap(c.start + deltaSeconds), ctx.duration)
    case 'end':
      return trimClipEnd(ctx.clips, c.id, snap(clipEnd(c) + deltaSeconds), ctx.duration)
    case 'loop': {
      const end = ctx.loopRegionEnd
      const barred = end !== undefined && c.sourceEnd > end + 1e-6 && end > c.sourceStart ? { ...c, sourceEnd: end } : c
      const clips = barred === c ? ctx.clips : ctx.clips.map((x) => (x.id === c.id ? barred : x))
      return loopClipTo(clips, c.id, snap(clipEnd(c) + deltaSeconds), ctx.duration)
    }
    // Fades are lengths, not grid positions: they follow the pointer freely.
    case 'fadeIn':
      return setClipFades(ctx.clips, c.id, { fadeIn: c.fadeIn + deltaSeconds }, ctx.duration)
    case 'fadeOut':
      return setClipFades(ctx.clips, c.id, { fadeOut: c.fadeOut - deltaSeconds }, ctx.duration)
  }
}
