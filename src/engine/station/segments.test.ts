import { describe, expect, it } from 'vitest'
import { PIECE_SECONDS } from './programme.ts'
import {
  chainFrom,
  coversToEnd,
  FIRST_PREROLL_SECONDS,
  FIRST_SEGMENT_SECONDS,
  JOIN_SECONDS,
  joinGain,
  PREROLL_SECONDS,
  prerollOf,
  SEGMENT_GROWTH,
  segmentPlan,
} from './segments.ts'

describe('segmentPlan', () => {
  it('joins mid-piece with a short first segment, each next one SEGMENT_GROWTH times longer, to the end', () => {
    const plan = segmentPlan(30)
    expect(plan.map((s) => [s.from, +s.to.toFixed(3), s.joinsIn, s.joinsOut])).toEqual([
      [30, 33.05, false, true],
      [33, 39.05, true, true],
      [39, 51.05, true, true],
      [51, PIECE_SECONDS, true, false],
    ])
    expect(plan[0]!.to - plan[0]!.from - JOIN_SECONDS).toBeCloseTo(FIRST_SEGMENT_SECONDS)
    expect(plan[1]!.to - plan[1]!.from - JOIN_SECONDS).toBeCloseTo(FIRST_SEGMENT_SECONDS * SEGMENT_GROWTH)
  })

  it('each segment overlaps the next by exactly JOIN_SECONDS, and they cover [start, end) with no hole', () => {
    for (const start of [0, 0.4, 12.5, 59.9, 65.5]) {
      const plan = segmentPlan(start)
      expect(plan[0]!.from).toBe(start)
      expect(plan.at(-1)!.to).toBe(PIECE_SECONDS)
      for (let i = 1; i < plan.length; i++) expect(plan[i - 1]!.to - plan[i]!.from).toBeCloseTo(JOIN_SECONDS, 9)
    }
  })

  it('the first segment of a join gets a short pre-roll, later ones a full one, the piece start none', () => {
    const [first, second] = segmentPlan(30)
    expect(prerollOf(first!)).toBe(FIRST_PREROLL_SECONDS)
    expect(prerollOf(second!)).toBe(PREROLL_SECONDS)
    expect(prerollOf(segmentPlan(0)[0]!)).toBeUndefined()
  })

  it('a piece prepared ahead is one segment', () => {
    expect(segmentPlan(0, PIECE_SECONDS, PIECE_SECONDS)).toEqual([{ from: 0, to: PIECE_SECONDS, joinsIn: false, joinsOut: false }])
  })
})

describe('joins', () => {
  it('the two sides of a join sum to 1 all across it (equal gain: both are the same music)', () => {
    const [a, b] = segmentPlan(10)
    for (let t = b!.from - 0.01; t <= a!.to + 0.01; t += 0.001) expect(joinGain(a!, t) + joinGain(b!, t)).toBeCloseTo(1, 9)
    expect(joinGain(a!, 12)).toBe(1)
    expect(joinGain(b!, b!.from)).toBe(0)
    expect(joinGain(a!, a!.to)).toBe(0)
  })

  it('chainFrom follows the plan from any moment; a missing link ends the chain', () => {
    const plan = segmentPlan(20)
    expect(chainFrom(plan, 20)).toEqual(plan)
    expect(chainFrom(plan, 27)).toEqual(plan.slice(1))
    expect(coversToEnd(plan, 21)).toBe(true)
    expect(coversToEnd(plan, 19)).toBe(false)
    expect(chainFrom([plan[0]!, plan[2]!], 20)).toEqual([plan[0]])
    expect(coversToEnd([plan[0]!, plan[2]!], 20)).toBe(false)
    expect(coversToEnd([], 0)).toBe(false)
  })
})
