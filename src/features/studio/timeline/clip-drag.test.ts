import { describe, expect, it } from 'vitest'
import { normaliseClip } from '../../../engine/arrangement/clip.ts'
import { dragClips } from './clip-drag.ts'

const clips = [normaliseClip({ id: 'a', start: 1, sourceStart: 0, sourceEnd: 2, length: 2, fadeIn: 0.2, fadeOut: 0.2 }, 4)]
const ctx = { clips, clipId: 'a', duration: 4, snap: 'beat' as const, bpm: 120 }

describe('dragging a clip', () => {
  it('moves and trims to the snapped pointer time; fades follow the pointer freely', () => {
    expect(dragClips('move', ctx, 0.8)[0]!.start).toBe(2) // 1.8 → the beat at 2.0
    expect(dragClips('move', { ...ctx, snap: 'off' }, 0.8)[0]!.start).toBeCloseTo(1.8, 12)
    expect(dragClips('start', ctx, 0.3)[0]).toMatchObject({ start: 1.5, sourceStart: 0.5, length: 1.5 })
    expect(dragClips('end', ctx, 1.1)[0]).toMatchObject({ length: 3, sourceEnd: 3 })
    expect(dragClips('loop', ctx, 5.9)[0]).toMatchObject({ length: 8, sourceEnd: 2 }) // end 8.9 → the beat at 9.0
    expect(dragClips('fadeIn', ctx, 0.33)[0]!.fadeIn).toBeCloseTo(0.53, 12)
    expect(dragClips('fadeOut', ctx, -0.33)[0]!.fadeOut).toBeCloseTo(0.53, 12)
  })

  it('looping an instrument track’s clip repeats its whole bars, not the tail of releases after them', () => {
    // One bar at 120 BPM (2 s) rendered with a 2 s tail: the whole-render clip is 4 s.
    const whole = [normaliseClip({ id: 'i', start: 0, sourceStart: 0, sourceEnd: 4, length: 4 }, 4)]
    const looped = dragClips('loop', { clips: whole, clipId: 'i', duration: 4, snap: 'beat', bpm: 120, loopRegionEnd: 2 }, 2)
    expect(looped[0]).toMatchObject({ sourceStart: 0, sourceEnd: 2, length: 6 })
    // An audio clip (no bars to keep to) loops its region as it is.
    expect(dragClips('loop', { clips: whole, clipId: 'i', duration: 4, snap: 'beat', bpm: 120 }, 2)[0]).toMatchObject({
      sourceEnd: 4,
      length: 6,
    })
  })

  it('a drag starts from the clips as they were: the result never accumulates pointer moves', () => {
    const once = dragClips('move', ctx, 1)
    expect(dragClips('move', ctx, 1)).toEqual(once)
    expect(ctx.clips[0]!.start).toBe(1)
    expect(dragClips('move', { ...ctx, clipId: 'nope' }, 1)).toBe(clips)
  })
})

describe('the loop region', () => {
  it('is whole bars, at least one, the moved edge pushing the other; seconds follow the tempo', async () => {
    const { useTimelineStore } = await import('./timeline-store.ts')
    const { loopSeconds } = await import('../mixer-service.ts')
    const set = useTimelineStore.getState().setLoop
    set({ enabled: true, fromBar: 3, toBar: 7 })
    expect(useTimelineStore.getState().loop).toEqual({ enabled: true, fromBar: 3, toBar: 7 })
    set({ fromBar: 9 })
    expect(useTimelineStore.getState().loop).toMatchObject({ fromBar: 9, toBar: 10 })
    set({ toBar: 4 })
    expect(useTimelineStore.getState().loop).toMatchObject({ fromBar: 3, toBar: 4 })
    set({ fromBar: -5, toBar: 2.6 })
    expect(useTimelineStore.getState().loop).toMatchObject({ fromBar: 1, toBar: 3 })
    expect(loopSeconds(useTimelineStore.getState().loop, 120)).toEqual({ start: 0, end: 4 })
    expect(loopSeconds({ enabled: true, fromBar: 2, toBar: 3 }, 90)).toEqual({ start: 240 / 90, end: 480 / 90 })
    expect(loopSeconds({ enabled: false, fromBar: 2, toBar: 3 }, 90)).toBeNull()
  })
})

describe('pinch zoom', () => {
  it('follows the spread of the fingers, within the zoom limits', async () => {
    const { pinchZoom, MAX_ZOOM, MIN_ZOOM } = await import('./timeline-store.ts')
    expect(pinchZoom(48, 100, 200)).toBe(96)
    expect(pinchZoom(48, 200, 100)).toBe(24)
    expect(pinchZoom(48, 10, 10000)).toBe(MAX_ZOOM)
    expect(pinchZoom(48, 1000, 1)).toBe(MIN_ZOOM)
    expect(pinchZoom(48, 0, 100)).toBe(48)
  })
})
