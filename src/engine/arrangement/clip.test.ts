import { describe, expect, it } from 'vitest'
import {
  MAX_CLIP_GAIN,
  MIN_CLIP_LENGTH,
  clipGainAt,
  isLooped,
  normaliseClip,
  sanitizeClips,
  sourceTimeAt,
  trackClips,
  trackEnd,
  type Clip,
} from './clip.ts'
import { mixDuration, sanitizeState } from '../mixer-model.ts'

const clip = (c: Partial<Clip> = {}): Clip => normaliseClip({ id: 'c', start: 0, sourceStart: 0, sourceEnd: 2, length: 2, ...c }, 2)

describe('clips', () => {
  it('a track without clips plays its whole audio once from its offset', () => {
    expect(trackClips({ id: 't', offset: 1.5, duration: 4 })).toEqual([
      { id: 't:whole', start: 1.5, sourceStart: 0, sourceEnd: 4, length: 4, phase: 0, gain: 1, fadeIn: 0, fadeOut: 0 },
    ])
    expect(trackEnd({ id: 't', offset: 1.5, duration: 4 })).toBe(5.5)
  })

  it('the mix ends where the last clip ends: a loop dragged to 8 bars makes the mix that long', () => {
    const loop = { id: 'l', offset: 0, duration: 2, clips: [clip({ length: 16 })] }
    expect(trackEnd(loop)).toBe(16)
    expect(mixDuration({ tracks: [loop as never, { id: 'x', offset: 0, duration: 4 } as never] })).toBe(16)
  })

  it('a clip longer than its region loops: the audio time wraps inside [sourceStart, sourceEnd)', () => {
    const c = clip({ sourceStart: 0.5, sourceEnd: 1.5, length: 3.5 })
    expect(isLooped(c)).toBe(true)
    expect(sourceTimeAt(c, 0)).toBe(0.5)
    expect(sourceTimeAt(c, 0.75)).toBe(1.25)
    expect(sourceTimeAt(c, 1)).toBeCloseTo(0.5, 12)
    expect(sourceTimeAt(c, 2.25)).toBeCloseTo(0.75, 12)
    expect(isLooped(clip({ length: 2 }))).toBe(false)
    // Begun half-way into its region, a clip shorter than the region still wraps.
    const late = clip({ sourceStart: 0, sourceEnd: 2, phase: 1.5, length: 1 })
    expect(isLooped(late)).toBe(true)
    expect(sourceTimeAt(late, 0)).toBe(1.5)
    expect(sourceTimeAt(late, 0.75)).toBeCloseTo(0.25, 12)
  })

  it('fades are equal-power: in and out sum to constant power at every crossfade point', () => {
    const c = clip({ fadeIn: 1, fadeOut: 1, gain: 1 })
    for (const u of [0, 0.1, 0.25, 0.5, 0.9, 1]) {
      const rising = clipGainAt(c, u)
      const falling = clipGainAt(c, 1 + u)
      expect(rising ** 2 + falling ** 2).toBeCloseTo(1, 12)
    }
    expect(clipGainAt(c, 0.5)).toBeCloseTo(Math.SQRT1_2, 12) // -3 dB at the middle, not -6 dB
    expect(clipGainAt(clip({ gain: 1.5 }), 1)).toBe(1.5)
    expect(clipGainAt(c, -0.1)).toBe(0)
    expect(clipGainAt(c, 2.1)).toBe(0)
  })

  it('normalising keeps every clip playable: trims inside the audio, fades inside the clip, gain bounded', () => {
    const n = normaliseClip({ id: 'n', start: -3, sourceStart: 5, sourceEnd: 1, length: -1, gain: 9, fadeIn: 4, fadeOut: 4 }, 2)
    expect(n.start).toBe(0)
    expect(n.sourceStart).toBeCloseTo(2 - MIN_CLIP_LENGTH, 12)
    expect(n.sourceEnd).toBeCloseTo(2, 12)
    expect(n.length).toBe(MIN_CLIP_LENGTH)
    expect(n.gain).toBe(MAX_CLIP_GAIN)
    expect(n.fadeIn + n.fadeOut).toBeLessThanOrEqual(n.length)
    const nan = normaliseClip({ id: 'x', start: NaN, gain: Infinity, length: undefined }, 3)
    expect(nan).toEqual({ id: 'x', start: 0, sourceStart: 0, sourceEnd: 3, length: 3, phase: 0, gain: 1, fadeIn: 0, fadeOut: 0 })
  })

  it('stored clips survive a save and load; junk is dropped, not thrown', () => {
    expect(sanitizeClips('nope', 2)).toBeUndefined()
    expect(sanitizeClips([null, 3, { start: 1 }, { id: 'ok', start: 1, length: 4 }], 2)).toEqual([
      { id: 'ok', start: 1, sourceStart: 0, sourceEnd: 2, length: 4, phase: 0, gain: 1, fadeIn: 0, fadeOut: 0 },
    ])
    const state = sanitizeState({
      tracks: [
        {
          id: 't',
          audioId: 'a',
          duration: 2,
          clips: [{ id: 'k', start: 2, sourceStart: 0.5, sourceEnd: 1.5, length: 3, gain: 0.5, fadeIn: 0.1, fadeOut: 0.2 }],
        },
      ],
    })
    expect(state.tracks[0]!.clips).toEqual([
      { id: 'k', start: 2, sourceStart: 0.5, sourceEnd: 1.5, length: 3, phase: 0, gain: 0.5, fadeIn: 0.1, fadeOut: 0.2 },
    ])
    expect(sanitizeState({ tracks: [{ id: 't', audioId: 'a', duration: 2 }] }).tracks[0]!.clips).toBeUndefined()
  })
})
