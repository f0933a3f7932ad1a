import { describe, expect, it } from 'vitest'
import type { Score } from '../composer.ts'
import { PIECE_SECONDS, slotAt, type ProgrammeSlot } from './programme.ts'
import { keyOf, PieceRenders } from './piece-renders.ts'
import { FIRST_SEGMENT_SECONDS, type Segment } from './segments.ts'

const AT = Date.UTC(2026, 11, 3, 8, 30)

/** A render the test finishes or fails by hand, with what was asked of it. */
interface PendingRender {
  segment: Segment
  signal: AbortSignal | undefined
  finish: () => void
  fail: (e: unknown) => void
}

function harness() {
  const renders: PendingRender[] = []
  const errors: unknown[] = []
  const rendered: string[] = []
  let onAir: ProgrammeSlot | null = null
  let next: ProgrammeSlot | null = null
  const queue = new PieceRenders<Segment>({
    compose: async () => ({}) as Score,
    render: (_score, segment, signal) =>
      new Promise<Segment>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('Render cancelled', 'AbortError')))
        renders.push({ segment, signal, finish: () => resolve(segment), fail: reject })
      }),
    level: () => 1,
    wanted: () => ({
      onAir: onAir && keyOf(onAir),
      keys: new Set([onAir, next].filter((s): s is ProgrammeSlot => s !== null).map(keyOf)),
    }),
    rendered: (slot, piece) => rendered.push(`${keyOf(slot)}@${piece.rendered.at(-1)!.from}`),
    failed: (e) => errors.push(e),
  })
  const tick = (current: ProgrammeSlot, following: ProgrammeSlot, position: number) => {
    onAir = current
    next = following
    queue.prepare(current, position, false)
    queue.prepare(following, 0, true)
  }
  /** Lets the queue take its next job. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return { queue, renders, errors, rendered, tick, settle }
}

describe('CUBE Radio render queue', () => {
  const a = slotAt(AT, {})
  const b = slotAt(AT, {}, 1)
  const c = slotAt(AT, {}, 2)

  const isWhole = (r: PendingRender) => r.segment.from === 0 && r.segment.to === PIECE_SECONDS
  /** Finishes each render asked for until the next piece's whole render is the one running. */
  async function untilWholeRuns(h: ReturnType<typeof harness>) {
    for (let i = 0; !isWhole(h.renders.at(-1)!); i++) {
      expect(i).toBeLessThan(20)
      h.renders.at(-1)!.finish()
      await h.settle()
    }
    return h.renders.at(-1)!
  }

  it('renders the piece on air first, in growing segments from the position, then the next one whole', async () => {
    const h = harness()
    h.tick(a, b, 20)
    await h.settle()
    expect(h.renders.map((r) => r.segment.from)).toEqual([20])
    expect(h.renders[0]!.segment.to - 20).toBeCloseTo(FIRST_SEGMENT_SECONDS + 0.05)
    const whole = await untilWholeRuns(h)
    expect(whole.signal).toBeDefined()
    const ofA = h.renders.slice(0, -1).map((r) => r.segment)
    expect(ofA.at(-1)!.to).toBe(PIECE_SECONDS)
    for (let i = 1; i < ofA.length; i++) expect(ofA[i]!.to - ofA[i]!.from).toBeGreaterThan(ofA[i - 1]!.to - ofA[i - 1]!.from)
    expect(h.rendered).toEqual(ofA.map((s) => `${keyOf(a)}@${s.from}`))
  })

  it('a skip onto a piece whose whole render is not done abandons it and renders from the position in segments', async () => {
    const h = harness()
    h.tick(a, b, 20)
    await h.settle()
    const whole = await untilWholeRuns(h)
    h.tick(b, c, 20.5)
    await h.settle()
    expect(whole.signal!.aborted).toBe(true)
    const first = h.renders.at(-1)!
    expect(first.segment.from).toBe(20.5)
    expect(first.segment.to - first.segment.from).toBeCloseTo(FIRST_SEGMENT_SECONDS + 0.05)
    first.finish()
    await h.settle()
    expect(h.rendered).toContain(`${keyOf(b)}@20.5`)
    // Abandoning the whole render is not an error the listener is told about.
    expect(h.errors).toEqual([])
  })

  it('another channel does not wait behind the old next piece: its whole render stops', async () => {
    const h = harness()
    h.tick(a, b, 20)
    await h.settle()
    const whole = await untilWholeRuns(h)
    const other = slotAt(AT, { mood: 'dark' })
    h.tick(other, slotAt(AT, { mood: 'dark' }, 1), 30)
    await h.settle()
    expect(whole.signal!.aborted).toBe(true)
    expect(h.renders.at(-1)!.segment.from).toBe(30)
    expect(h.errors).toEqual([])
  })

  it('a piece rendered whole ahead plays from it when it goes on air: nothing of it is rendered again', async () => {
    const h = harness()
    h.tick(a, b, 50)
    await h.settle()
    ;(await untilWholeRuns(h)).finish()
    await h.settle()
    const asked = h.renders.length
    h.tick(b, c, 0.5)
    await h.settle()
    expect(h.renders.slice(asked).map((r) => isWhole(r))).toEqual([true])
    expect(h.queue.pieces.get(keyOf(b))!.rendered).toHaveLength(1)
  })

  it('a failed segment is reported, and asked again at once on the next tick', async () => {
    const h = harness()
    h.tick(a, b, 10)
    await h.settle()
    h.renders[0]!.fail(new Error('The renderer ran out of memory'))
    await h.settle()
    expect(h.errors).toHaveLength(1)
    // B's whole render took the turn; the retry of the piece on air goes before it.
    const whole = h.renders.at(-1)!
    expect(isWhole(whole)).toBe(true)
    h.tick(a, b, 11)
    await h.settle()
    expect(whole.signal!.aborted).toBe(true)
    expect(h.renders.at(-1)!.segment.from).toBe(11)
    // And the next piece is asked again, whole, once the piece on air is rendered.
    h.renders.at(-1)!.finish()
    await untilWholeRuns(h)
    h.tick(a, b, 12)
    expect(h.errors).toHaveLength(1)
  })
})
