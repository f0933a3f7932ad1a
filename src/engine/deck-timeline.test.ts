import { describe, expect, it } from 'vitest'
import {
  MAX_CROSSFADE_S,
  Preloader,
  clampCrossfade,
  fadeCurve,
  fadeInGain,
  fadeOutGain,
  onGrid,
  positionAt,
  startFrom,
  transitionPlan,
} from './deck-timeline.ts'

const SR = 48000
const LEAD = 0.03

describe('equal-power fade curves', () => {
  it('start and end where they should and keep sin² + cos² = 1 at every point', () => {
    expect(fadeInGain(0)).toBe(0)
    expect(fadeOutGain(0)).toBe(1)
    expect(fadeInGain(1)).toBeCloseTo(1, 12)
    expect(fadeOutGain(1)).toBeCloseTo(0, 12)
    // Halfway both are at -3.01 dB, not -6 dB as a linear fade would be.
    expect(20 * Math.log10(fadeInGain(0.5))).toBeCloseTo(-3.0103, 3)
    for (let f = 0; f <= 1; f += 0.01) expect(fadeInGain(f) ** 2 + fadeOutGain(f) ** 2).toBeCloseTo(1, 12)
    // Outside 0..1 (and NaN) they hold their ends instead of wrapping.
    expect(fadeInGain(-1)).toBe(0)
    expect(fadeInGain(2)).toBe(1)
    expect(fadeOutGain(Number.NaN)).toBe(1)
  })

  it('fadeCurve samples them evenly, both ends included, and the two curves sum to unit power', () => {
    const into = fadeCurve('in', 5)
    const out = fadeCurve('out', 5)
    expect(Array.from(into)).toEqual([0, fadeInGain(0.25), fadeInGain(0.5), fadeInGain(0.75), fadeInGain(1)].map(Math.fround))
    for (let i = 0; i < 5; i++) expect(into[i]! ** 2 + out[i]! ** 2).toBeCloseTo(1, 6)
    expect(into[4]).toBeCloseTo(1, 6)
    expect(out[4]).toBeCloseTo(0, 6)
  })
})

describe('crossfade setting', () => {
  it('is 0..12 s, and 0 (gapless) for anything unusable', () => {
    expect(MAX_CROSSFADE_S).toBe(12)
    expect(clampCrossfade(3.5)).toBe(3.5)
    expect(clampCrossfade(-1)).toBe(0)
    expect(clampCrossfade(99)).toBe(12)
    expect(clampCrossfade(Number.NaN)).toBe(0)
    expect(clampCrossfade('6')).toBe(0)
  })
})

describe('when the next item starts', () => {
  const current = { startAt: 10, duration: 180 } // ends at context time 190

  it('crossfade 0: exactly at the current item end (gapless), and the end is on the sample grid', () => {
    const start = startFrom(10, 0, LEAD, SR)
    const item = { startAt: start.startAt, duration: (180 * SR) / SR }
    const plan = transitionPlan(11, item, 200, 0, LEAD)!
    expect(plan.fade).toBe(0)
    expect(plan.at).toBe(item.startAt + item.duration)
    expect(Math.abs(plan.at * SR - Math.round(plan.at * SR))).toBeLessThan(1e-6)
  })

  it('with a crossfade: that many seconds before the end, overlapping by as much', () => {
    expect(transitionPlan(11, current, 200, 6, LEAD)).toEqual({ at: 184, fade: 6 })
    expect(transitionPlan(11, current, 200, 12, LEAD)).toEqual({ at: 178, fade: 12 })
  })

  it('never overlaps more than half of either item', () => {
    expect(transitionPlan(11, { startAt: 10, duration: 8 }, 200, 12, LEAD)).toEqual({ at: 14, fade: 4 })
    expect(transitionPlan(11, current, 3, 12, LEAD)).toEqual({ at: 188.5, fade: 1.5 })
  })

  it('a seek past the start of the fade: the next starts after the lead and overlaps what is left', () => {
    // Playhead at 177 s of 180 with a 6 s crossfade: 3 s remain.
    const seeked = { startAt: 100 - 177, duration: 180 }
    const plan = transitionPlan(100, seeked, 200, 6, LEAD)!
    expect(plan.at).toBeCloseTo(100 + LEAD, 12)
    expect(plan.fade).toBeCloseTo(3 - LEAD, 12)
    // Gapless too: a seek to the last instant still starts the next exactly at the end.
    const atEnd = { startAt: 100 + LEAD - 180, duration: 180 }
    expect(transitionPlan(100, atEnd, 200, 0, LEAD)).toEqual({ at: 100 + LEAD, fade: 0 })
  })

  it('nothing to plan once the current item has ended', () => {
    expect(transitionPlan(191, current, 200, 0, LEAD)).toBeNull()
  })

  it('a crossfade changed before the handover moves it; the end of the current item does not move', () => {
    const before = transitionPlan(50, current, 200, 2, LEAD)!
    const after = transitionPlan(60, current, 200, 8, LEAD)!
    expect(before.at + before.fade).toBe(190)
    expect(after.at + after.fade).toBe(190)
    expect(after.at).toBe(182)
  })
})

describe('the playhead', () => {
  it('restarting at an offset anchors the item on the sample grid', () => {
    const s = startFrom(5.0001, 42.123456789, LEAD, SR)
    expect(s.when).toBe(onGrid(5.0301, SR))
    expect(s.offset).toBe(onGrid(42.123456789, SR))
    expect(Math.abs(s.startAt * SR - Math.round(s.startAt * SR))).toBeLessThan(1e-6)
    expect(positionAt(s.when + 1, { startAt: s.startAt, duration: 180 })).toBeCloseTo(s.offset + 1, 9)
  })

  it('is clamped to the item', () => {
    expect(positionAt(5, { startAt: 10, duration: 30 })).toBe(0)
    expect(positionAt(100, { startAt: 10, duration: 30 })).toBe(30)
  })

  it('a seek during a crossfade restarts the current item there and plans the next handover from it', () => {
    // B took over at 184 with a 6 s fade; at 186 the user seeks B to 20 s.
    const now = 186
    const b = startFrom(now, 20, LEAD, SR)
    const plan = transitionPlan(now, { startAt: b.startAt, duration: 120 }, 90, 6, LEAD)!
    expect(positionAt(b.when, { startAt: b.startAt, duration: 120 })).toBeCloseTo(20, 9)
    expect(plan.at).toBeCloseTo(b.startAt + 120 - 6, 9)
    expect(plan.fade).toBe(6)
  })
})

describe('Preloader: one item decoded ahead', () => {
  function deferredDecoder() {
    const started: string[] = []
    const resolvers = new Map<string, (v: string) => void>()
    const decode = (key: string) => {
      started.push(key)
      return new Promise<string>((resolve) => resolvers.set(key, resolve))
    }
    return { started, resolve: (key: string) => resolvers.get(key)!(`decoded ${key}`), decode }
  }

  it('asking again for the same item reuses the decode under way', () => {
    const d = deferredDecoder()
    const p = new Preloader(d.decode)
    const first = p.want('/b.mp3')
    expect(p.want('/b.mp3')).toBe(first)
    expect(p.peek('/b.mp3')).toBe(first)
    expect(d.started).toEqual(['/b.mp3'])
  })

  it('skipping while preloading: the old decode, finishing late, is no longer current and is never scheduled', async () => {
    const d = deferredDecoder()
    const p = new Preloader(d.decode)
    const old = p.want('/b.mp3')!
    const fresh = p.want('/c.mp3')!
    d.resolve('/b.mp3')
    expect(await old).toBe('decoded /b.mp3')
    expect(p.isCurrent('/b.mp3', old)).toBe(false)
    expect(p.peek('/b.mp3')).toBeNull()
    d.resolve('/c.mp3')
    expect(await fresh).toBe('decoded /c.mp3')
    expect(p.isCurrent('/c.mp3', fresh)).toBe(true)
    // Coming back to B decodes it again rather than trusting the dropped one.
    p.want('/b.mp3')
    expect(d.started).toEqual(['/b.mp3', '/c.mp3', '/b.mp3'])
  })

  it('nothing next (end of a queue or stop) drops the decode; a failed decode is not an unhandled rejection', async () => {
    const p = new Preloader((key) => Promise.reject(new Error(`cannot decode ${key}`)))
    const failing = p.want('/bad.mp3')!
    await expect(failing).rejects.toThrow('cannot decode /bad.mp3')
    p.want(null)
    expect(p.key).toBeNull()
    expect(p.peek('/bad.mp3')).toBeNull()
  })

  it('lends a decode to a load only once it has finished (a start never waits for a whole download)', async () => {
    const d = deferredDecoder()
    const p = new Preloader(d.decode)
    const pending = p.want('/b.mp3')!
    expect(p.ready('/b.mp3')).toBeNull()
    d.resolve('/b.mp3')
    await pending
    expect(p.ready('/b.mp3')).toBe('decoded /b.mp3')
    expect(p.ready('/c.mp3')).toBeNull()
    p.clear()
    expect(p.ready('/b.mp3')).toBeNull()
  })
})
