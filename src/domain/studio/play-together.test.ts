import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import * as encoding from 'lib0/encoding'
import { measureClockOffset } from '../../lib/clock-offset.ts'
import { startProjectSync, MESSAGE_TRANSPORT, type ProjectChannel } from './project-sync.ts'
import { encodeCue, MAX_AHEAD_MS, parseCue, START_DELAY_MS, startPlayTogether, type SharedTransport } from './play-together.ts'

// Several studios in one fake world: one true time, each studio's clock off by its own skew, a
// server that reads the true time, and a room that delivers each message after a latency. Each
// studio's transport is a fake that says where its playhead is at any true instant.

class World {
  t = 1_800_000_000_000
  private members: { skewMs: number; latencyMs: number; handlers: Set<(m: Uint8Array) => void> }[] = []
  /** Messages in flight: delivered when the true time reaches `at`. */
  private flying: { at: number; deliver: () => void }[] = []

  advance(ms: number) {
    const end = this.t + ms
    for (;;) {
      const next = this.flying.sort((a, b) => a.at - b.at)[0]
      if (!next || next.at > end) break
      this.flying.shift()
      this.t = next.at
      next.deliver()
    }
    this.t = end
  }

  studio(skewMs: number, latencyMs = 40) {
    const member = { skewMs, latencyMs, handlers: new Set<(m: Uint8Array) => void>() }
    this.members.push(member)
    const now = () => this.t + skewMs
    const sent: Uint8Array[] = []
    const channel: ProjectChannel = {
      send: (m) => {
        sent.push(m)
        for (const other of this.members)
          if (other !== member)
            this.flying.push({ at: this.t + other.latencyMs, deliver: () => other.handlers.forEach((h) => h(m.slice())) })
      },
      onMessage: (h) => (member.handlers.add(h), () => member.handlers.delete(h)),
      onRejoin: () => () => {},
      close: () => {},
    }
    return { now, channel, sent, transport: new FakeTransport(now) }
  }

  /** The server's time, over legs of `up` and `down` ms (the server reads its clock on arrival). */
  server(up: number, down: number) {
    return async () => {
      this.t += up
      const s = this.t
      this.t += down
      return s
    }
  }
}

class FakeTransport implements SharedTransport {
  starts: { seconds: number; atMs: number }[] = []
  stops: number[] = []
  private run: { seconds: number; atMs: number } | null = null
  private pausedAt = 0
  constructor(private now: () => number) {}
  playAt(seconds: number, atMs: number) {
    this.starts.push({ seconds, atMs })
    this.run = { seconds, atMs }
  }
  stopAt(seconds: number) {
    this.stops.push(seconds)
    this.run = null
    this.pausedAt = seconds
  }
  seek(seconds: number) {
    this.pausedAt = seconds
  }
  /** Timeline seconds now; before a scheduled start, the start's own position. */
  position() {
    if (!this.run) return this.pausedAt
    return this.run.seconds + Math.max(0, this.now() - this.run.atMs) / 1000
  }
  playing() {
    return this.run !== null && this.now() >= this.run.atMs
  }
}

async function joined(world: World, skewMs: number, opts: { latencyMs?: number; canSend?: boolean; legs?: [number, number] } = {}) {
  const s = world.studio(skewMs, opts.latencyMs)
  const refused: string[] = []
  const together = startPlayTogether({
    channel: s.channel,
    transport: s.transport,
    canSend: opts.canSend ?? true,
    now: s.now,
    onRefused: (r) => refused.push(r),
  })
  const [up, down] = opts.legs ?? [25, 25]
  const estimate = await measureClockOffset(world.server(up, down), s.now)
  return { ...s, together, refused, estimate, optIn: () => together.enable(() => estimate.offsetMs) }
}

describe('play together', () => {
  it('studios with different clock offsets are at the same musical position at the same true instant', async () => {
    const w = new World()
    const a = await joined(w, 7_000)
    const b = await joined(w, -1_234, { latencyMs: 60 })
    // C hears the cue after the shared start has passed: it joins where the others are by then.
    const c = await joined(w, 300_000, { latencyMs: START_DELAY_MS + 150 })
    for (const s of [a, b, c]) s.optIn()
    expect(a.estimate.offsetMs).toBe(-7_000)
    expect(b.estimate.offsetMs).toBe(1_234)
    a.transport.seek(12.5)
    expect(a.together.play()).toBe(true)
    w.advance(START_DELAY_MS + 700)
    const at = [a, b, c].map((s) => s.transport.position())
    expect(at[0]).toBeCloseTo(12.5 + 0.7, 9)
    expect(at[1]).toBeCloseTo(at[0]!, 9)
    expect(at[2]).toBeCloseTo(at[0]!, 9)
    // B was scheduled for the instant itself; C started on arrival, further into the mix.
    expect(b.transport.starts).toEqual([{ seconds: 12.5, atMs: expect.any(Number) }])
    expect(c.transport.starts[0]!.seconds).toBeCloseTo(12.5 + 0.15, 9)
    expect([a, b, c].every((s) => s.transport.playing())).toBe(true)
    expect([a, b, c].flatMap((s) => s.refused)).toEqual([])
  })

  it('over asymmetric networks the studios disagree by no more than their clocks’ stated accuracy', async () => {
    const w = new World()
    const a = await joined(w, 2_000, { legs: [5, 45] })
    const b = await joined(w, -900, { legs: [60, 4] })
    a.optIn()
    b.optIn()
    a.together.play()
    w.advance(1_000)
    const apart = Math.abs(a.transport.position() - b.transport.position()) * 1000
    expect(apart).toBeGreaterThan(0)
    expect(apart).toBeLessThanOrEqual(a.estimate.accuracyMs + b.estimate.accuracyMs)
  })

  it('pause is shared with its position; the next play starts everyone from there', async () => {
    const w = new World()
    const a = await joined(w, 500)
    const b = await joined(w, -500)
    a.optIn()
    b.optIn()
    a.together.play()
    w.advance(2_000)
    expect(b.together.stop()).toBe(true)
    w.advance(100)
    expect(a.transport.stops).toEqual(b.transport.stops)
    expect(a.transport.stops[0]).toBeCloseTo(1.7, 9)
    expect([a.transport.playing(), b.transport.playing()]).toEqual([false, false])
    b.together.play()
    w.advance(START_DELAY_MS + 500)
    expect(a.transport.position()).toBeCloseTo(1.7 + 0.5, 9)
    expect(b.transport.position()).toBeCloseTo(a.transport.position(), 9)
  })

  it('a seek is shared: while playing everyone starts again from there together; paused, everyone moves there', async () => {
    const w = new World()
    const a = await joined(w, 4_000)
    const b = await joined(w, -2_500, { latencyMs: 80 })
    a.optIn()
    b.optIn()
    a.together.play()
    w.advance(3_000)
    expect(b.together.seek(42)).toBe(true)
    w.advance(START_DELAY_MS + 600)
    expect(a.transport.position()).toBeCloseTo(42.6, 9)
    expect(b.transport.position()).toBeCloseTo(a.transport.position(), 9)
    a.together.stop()
    w.advance(200)
    expect(a.together.seek(7.25)).toBe(true)
    w.advance(200)
    expect([a.transport.position(), b.transport.position()]).toEqual([7.25, 7.25])
    expect([a.transport.playing(), b.transport.playing()]).toEqual([false, false])
    // Not a position in a mix: not sent, and the caller seeks alone.
    const sent = a.sent.length
    expect(a.together.seek(Number.NaN)).toBe(false)
    expect(a.sent).toHaveLength(sent)
  })

  it('a studio that has not opted in (or opted out) ignores the cues and plays alone', async () => {
    const w = new World()
    const a = await joined(w, 0)
    const b = await joined(w, 0)
    a.optIn()
    a.together.play()
    w.advance(1_000)
    a.together.stop()
    w.advance(1_000)
    expect(b.transport.starts).toEqual([])
    expect(b.transport.stops).toEqual([])
    // Not opted in, its own press is not shared either.
    expect(b.together.play()).toBe(false)
    expect(b.sent).toEqual([])
    b.optIn()
    b.together.disable()
    a.together.play()
    w.advance(1_000)
    expect(b.transport.starts).toEqual([])
  })

  it('a viewer (who may not send on the room) hears the cues; its own press stays local', async () => {
    const w = new World()
    const editor = await joined(w, 1_000)
    const viewer = await joined(w, -3_000, { canSend: false })
    editor.optIn()
    viewer.optIn()
    expect(viewer.together.play()).toBe(false)
    expect(viewer.together.stop()).toBe(false)
    expect(viewer.together.seek(3)).toBe(false)
    expect(viewer.sent).toEqual([])
    editor.together.play()
    w.advance(START_DELAY_MS + 250)
    expect(viewer.transport.position()).toBeCloseTo(editor.transport.position(), 9)
    expect(viewer.transport.playing()).toBe(true)
  })

  it('malformed, oversized or far-off cues are refused in words and change nothing', async () => {
    const w = new World()
    const a = await joined(w, 0)
    const b = await joined(w, 0)
    b.optIn()
    const raw = (json: string) => {
      const e = encoding.createEncoder()
      encoding.writeVarUint(e, MESSAGE_TRANSPORT)
      encoding.writeVarString(e, json)
      return encoding.toUint8Array(e)
    }
    const serverNow = w.t
    const bad = [
      raw('not json'),
      raw('{"k":"play","p":-1,"at":0}'),
      raw('{"k":"play","p":"3","at":0}'),
      raw(`{"k":"play","p":1}`),
      raw(`{"k":"rewind","p":1}`),
      raw(`{"k":"play","p":1,"at":${serverNow},"pad":"${'x'.repeat(300)}"}`),
      encodeCue({ kind: 'play', position: 1, startAt: serverNow + MAX_AHEAD_MS + 5_000 }),
      encodeCue({ kind: 'play', position: 1, startAt: serverNow - 60_000 }),
      new Uint8Array([MESSAGE_TRANSPORT]),
    ]
    for (const m of bad) a.channel.send(m)
    w.advance(100)
    expect(b.transport.starts).toEqual([])
    expect(b.refused).toHaveLength(bad.length)
    expect(b.refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Refused a play-together cue that does not decode/),
        'Refused a play-together cue without a position in the mix.',
        'Refused a play-together cue without a start time.',
        'Refused a play-together cue of unknown kind "rewind".',
        expect.stringMatching(/^Refused a play-together cue of \d+ bytes \(over 256\)/),
        'Refused a start 10 s ahead (over 5 s).',
        'Refused a start 60 s ago (over 10 s late).',
      ]),
    )
    // The document's own messages are not cues.
    expect(parseCue(new Uint8Array([0, 1, 0]))).toBeNull()
    expect(parseCue(new Uint8Array([]))).toBeNull()
  })

  it("the document's sync passes the cues over without refusing them", async () => {
    const w = new World()
    const a = await joined(w, 0)
    const b = w.studio(0)
    const refused: string[] = []
    const sync = startProjectSync({
      doc: new Y.Doc(),
      channel: b.channel,
      log: { load: async () => [], append: async () => {}, compact: async () => {} },
      canWrite: true,
      onRefused: (r) => refused.push(r),
    })
    await sync.ready
    a.optIn()
    a.together.play()
    a.together.stop()
    w.advance(100)
    expect(refused).toEqual([])
    await sync.stop()
  })
})
