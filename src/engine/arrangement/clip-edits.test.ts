import { describe, expect, it } from 'vitest'
import { clipEnd, isLooped, normaliseClip, sourceTimeAt, type Clip } from './clip.ts'
import {
  duplicateClip,
  gridSeconds,
  loopClipTo,
  loopRegionSeconds,
  moveClip,
  removeClip,
  setClipFades,
  setClipGain,
  snapTime,
  splitClip,
  trimClipEnd,
  trimClipStart,
} from './clip-edits.ts'

const D = 4 // seconds of audio
const base = (c: Partial<Clip> = {}): Clip => normaliseClip({ id: 'c', start: 1, sourceStart: 0.5, sourceEnd: 2.5, length: 2, ...c }, D)

/** What audio second plays at timeline time t, across a track's clips (null = silence). */
function heardAt(clips: Clip[], t: number): number | null {
  const c = clips.find((x) => t >= x.start && t < clipEnd(x))
  return c ? sourceTimeAt(c, t - c.start) : null
}

const SAMPLES = Array.from({ length: 200 }, (_, i) => i * 0.05 + 0.0123)

describe('clip edits', () => {
  it('grid lines in 4/4: bar, beat, 1/8, 1/16; snapping goes to the nearest line', () => {
    expect(gridSeconds('bar', 120)).toBe(2)
    expect(gridSeconds('beat', 120)).toBe(0.5)
    expect(gridSeconds('1/8', 120)).toBe(0.25)
    expect(gridSeconds('1/16', 120)).toBe(0.125)
    expect(snapTime(1.3, 'beat', 120)).toBe(1.5)
    expect(snapTime(1.2, 'bar', 120)).toBe(2)
    expect(snapTime(1.234, 'off', 120)).toBe(1.234)
  })

  it('move keeps what the clip plays, never before 0', () => {
    const [m] = moveClip([base()], 'c', 3, D)
    expect(m!.start).toBe(3)
    expect(heardAt([m!], 3.5)).toBeCloseTo(heardAt([base()], 1.5)!, 12)
    expect(moveClip([base()], 'c', -2, D)[0]!.start).toBe(0)
  })

  it('trimming reveals or hides audio, bounded by the audio itself', () => {
    const [head] = trimClipStart([base()], 'c', 1.4, D)
    expect([head!.start, head!.length, head!.sourceStart].map((x) => +x.toFixed(9))).toEqual([1.4, 1.6, 0.9])
    for (const t of SAMPLES.filter((t) => t >= 1.4 && t < 3)) expect(heardAt([head!], t)).toBeCloseTo(heardAt([base()], t)!, 12)
    // Dragged far left: stops where the audio begins (0.5 s before the old start).
    expect(trimClipStart([base()], 'c', 0, D)[0]).toMatchObject({ start: 0.5, sourceStart: 0, length: 2.5 })
    const [tail] = trimClipEnd([base()], 'c', 9, D)
    expect(tail).toMatchObject({ length: 3.5, sourceEnd: 4 })
    expect(isLooped(tail!)).toBe(false)
    expect(trimClipEnd([base()], 'c', 2, D)[0]).toMatchObject({ length: 1, sourceEnd: 1.5 })
  })

  it('looping by the loop handle repeats the region; a 2-bar loop dragged to 8 bars plays it 4 times', () => {
    const loop = normaliseClip({ id: 'l', start: 0, sourceStart: 0, sourceEnd: 4, length: 4 }, 4.05)
    const [long] = loopClipTo([loop], 'l', 16, 4.05)
    expect(long!.length).toBe(16)
    expect(isLooped(long!)).toBe(true)
    for (const t of [0.1, 4.1, 8.1, 12.1]) expect(sourceTimeAt(long!, t)).toBeCloseTo(0.1, 9)
    // An MP3's decoded length carries padding: the region is the loop's whole bars at its tempo.
    expect(loopRegionSeconds(4.05, 120)).toBe(4)
    expect(loopRegionSeconds(3.27, 147)).toBeCloseTo((240 / 147) * 2, 12)
  })

  it('split gives two clips that play exactly what one played (also inside a loop), each with its own id', () => {
    for (const c of [base({ fadeIn: 0.2, fadeOut: 0.3 }), base({ length: 7, fadeOut: 0.5 })]) {
      const parts = splitClip([c], 'c', 2.7, D, 'c2')
      expect(parts.map((p) => p.id)).toEqual(['c', 'c2'])
      expect(parts[0]!.fadeOut).toBe(0)
      expect(parts[1]!.fadeIn).toBe(0)
      expect(parts[1]!.fadeOut).toBeCloseTo(c.fadeOut, 12)
      for (const t of SAMPLES.filter((t) => t >= c.start && t < clipEnd(c))) expect(heardAt(parts, t)).toBeCloseTo(heardAt([c], t)!, 9)
    }
    expect(splitClip([base()], 'c', 0.5, D, 'x')).toEqual([base()]) // outside: nothing happens
  })

  it('a looped clip trimmed at its head keeps every later moment in place (its phase)', () => {
    const loop = base({ length: 7 })
    const [t] = trimClipStart([loop], 'c', 3.3, D)
    expect(t!.start).toBeCloseTo(3.3, 12)
    for (const x of SAMPLES.filter((x) => x >= 3.3 && x < 8)) expect(heardAt([t!], x)).toBeCloseTo(heardAt([loop], x)!, 9)
  })

  it('duplicate lands right after the original; remove drops only that clip', () => {
    const two = duplicateClip([base()], 'c', D, 'd')
    expect(two[1]).toMatchObject({ id: 'd', start: 3, length: 2, sourceStart: 0.5 })
    expect(removeClip(two, 'c').map((c) => c.id)).toEqual(['d'])
  })

  it('gain and fades stay within their bounds', () => {
    expect(setClipGain([base()], 'c', 5, D)[0]!.gain).toBe(2)
    expect(setClipGain([base()], 'c', -1, D)[0]!.gain).toBe(0)
    const [f] = setClipFades([base()], 'c', { fadeIn: 1.5, fadeOut: 1.5 }, D)
    expect(f!.fadeIn).toBe(1.5)
    expect(f!.fadeOut).toBeCloseTo(0.5, 12)
  })
})
