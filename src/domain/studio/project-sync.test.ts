import { describe, expect, it, vi } from 'vitest'

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(() => undefined, { error: () => undefined, success: () => undefined }) }))
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import { createMixerStore } from './mixer-store.ts'
import { readMix } from './project-doc.ts'
import * as encoding from 'lib0/encoding'
import { MAX_PRESENCE_BYTES, MAX_PRESENCE_CLIENTS } from './presence.ts'
import {
  COMPACT_AFTER,
  MAX_MESSAGE_BYTES,
  MESSAGE_AWARENESS,
  startProjectSync,
  type ProjectChannel,
  type ProjectSync,
  type ProjectUpdateLog,
  type StoredUpdate,
} from './project-sync.ts'
import { sameJson } from '../../lib/same-json.ts'

// The sync provider over an in-memory broadcast room and an in-memory update log, as the Supabase
// Realtime channel and the project_updates table serve them.

class Room {
  members = new Set<FakeChannel>()
  join(): FakeChannel {
    const c = new FakeChannel(this)
    this.members.add(c)
    return c
  }
}

class FakeChannel implements ProjectChannel {
  online = true
  private handlers = new Set<(m: Uint8Array) => void>()
  private rejoins = new Set<() => void>()
  constructor(private room: Room) {}
  send(m: Uint8Array) {
    if (!this.online) return
    for (const other of this.room.members) if (other !== this && other.online) for (const h of other.handlers) h(m.slice())
  }
  onMessage(h: (m: Uint8Array) => void) {
    this.handlers.add(h)
    return () => this.handlers.delete(h)
  }
  onRejoin(h: () => void) {
    this.rejoins.add(h)
    return () => this.rejoins.delete(h)
  }
  drop() {
    this.online = false
  }
  rejoin() {
    this.online = true
    for (const h of this.rejoins) h()
  }
  close() {
    this.room.members.delete(this)
  }
}

class FakeLog implements ProjectUpdateLog {
  rows: StoredUpdate[] = []
  private next = 1
  compactions = 0
  async load() {
    return this.rows.map((r) => ({ ...r }))
  }
  async append(update: Uint8Array) {
    this.rows.push({ id: this.next++, update })
  }
  async compact(snapshot: Uint8Array, throughId: number) {
    this.compactions++
    this.rows = [{ id: this.next++, update: snapshot }, ...this.rows.filter((r) => r.id > throughId)]
  }
}

function creator(log: FakeLog, r: Room, canWrite = true) {
  const store = createMixerStore(new Y.Doc())
  const channel = r.join()
  const refused: string[] = []
  const sync = startProjectSync({ doc: store.collab.doc, channel, log, canWrite, onRefused: (m) => refused.push(m) })
  return { s: () => store.getState(), store, channel, sync, refused }
}
const stop = (...syncs: ProjectSync[]) => Promise.all(syncs.map((s) => s.stop()))

describe('project sync over a broadcast channel and a stored log', () => {
  it('a creator who joins later catches up from the log and the channel; edits then travel both ways', async () => {
    const r = new Room()
    const log = new FakeLog()
    const a = creator(log, r)
    await a.sync.ready
    const t = a.s().addTrack({ name: 'Drums', type: 'main', audioId: 'd', duration: 4 })
    a.s().setTempo(100)
    const b = creator(log, r)
    await b.sync.ready
    expect(b.s().tracks.map((x) => x.name)).toEqual(['Drums'])
    expect(b.s().tempo).toBe(100)
    b.s().setControl(t.id, 'pan', 30)
    expect(a.s().tracks[0]!.pan).toBe(30)
    await stop(a.sync, b.sync)
    // Alone in the room, a third creator has only the log: it holds everything.
    const c = creator(log, r)
    await c.sync.ready
    expect(sameJson(readMix(c.store.collab.doc), readMix(a.store.collab.doc))).toBe(true)
    await stop(c.sync)
  })

  it('edits made while disconnected reach the others when the creator is back, and theirs arrive too', async () => {
    const r = new Room()
    const log = new FakeLog()
    const a = creator(log, r)
    const b = creator(log, r)
    await Promise.all([a.sync.ready, b.sync.ready])
    const t = a.s().addTrack({ name: 'Keys', type: 'main', audioId: 'k', duration: 4 })
    b.channel.drop()
    b.s().setControl(t.id, 'volume', 12)
    a.s().renameTrack(t.id, 'Piano')
    expect(a.s().tracks[0]!.volume).toBe(70)
    b.channel.rejoin()
    expect(a.s().tracks[0]).toMatchObject({ name: 'Piano', volume: 12 })
    expect(b.s().tracks[0]).toMatchObject({ name: 'Piano', volume: 12 })
    await stop(a.sync, b.sync)
  })

  it('an editor stores a slider drag as one row a second; a viewer receives but neither sends nor stores', async () => {
    vi.useFakeTimers()
    try {
      const r = new Room()
      const log = new FakeLog()
      const a = creator(log, r)
      const viewer = creator(log, r, false)
      await Promise.all([a.sync.ready, viewer.sync.ready])
      const t = a.s().addTrack({ name: 'Bass', type: 'main', audioId: 'b', duration: 4 })
      for (let v = 0; v < 30; v++) a.s().setControl(t.id, 'volume', v, 'drag')
      expect(log.rows).toHaveLength(0)
      await vi.advanceTimersByTimeAsync(1000)
      expect(log.rows).toHaveLength(1)
      expect(viewer.s().tracks[0]!.volume).toBe(29)
      viewer.s().setControl(t.id, 'volume', 99)
      await vi.advanceTimersByTimeAsync(1000)
      expect(a.s().tracks[0]!.volume).toBe(29)
      expect(log.rows).toHaveLength(1)
      // Nor does the viewer's edit leave when a peer asks it for what it has.
      const late = creator(log, r)
      await late.sync.ready
      expect(late.s().tracks[0]!.volume).toBe(29)
      await stop(a.sync, viewer.sync, late.sync)
    } finally {
      vi.useRealTimers()
    }
  })

  it('malformed and oversized messages and stored rows are refused, in words, and change nothing', async () => {
    const r = new Room()
    const log = new FakeLog()
    log.rows.push({ id: 1, update: new Uint8Array([1, 2, 3, 250, 9]) })
    const a = creator(log, r)
    await a.sync.ready
    expect(a.refused.join('\n')).toMatch(/Skipped stored row 1: an update that is not a Yjs update/)
    a.s().addTrack({ name: 'Lead', type: 'main', audioId: 'l', duration: 2 })
    const before = Y.encodeStateAsUpdate(a.store.collab.doc)
    const outsider = r.join()
    outsider.send(new Uint8Array([2, 5, 1, 2, 3, 4, 5]))
    outsider.send(new Uint8Array([77, 0]))
    outsider.send(new Uint8Array(MAX_MESSAGE_BYTES + 1))
    expect(a.refused.slice(1)).toEqual([
      expect.stringMatching(/^Refused an update that is not a Yjs update .* from the channel\.$/),
      'Refused a channel message of unknown type 77.',
      `Refused a message of ${MAX_MESSAGE_BYTES + 1} bytes from the channel (over ${MAX_MESSAGE_BYTES}).`,
    ])
    expect(Y.encodeStateAsUpdate(a.store.collab.doc)).toEqual(before)
    expect(a.s().tracks.map((t) => t.name)).toEqual(['Lead'])
    await stop(a.sync)
  })

  it('a long log is compacted into one snapshot that a new creator catches up from', async () => {
    const r = new Room()
    const log = new FakeLog()
    const writer = createMixerStore(new Y.Doc())
    writer.collab.doc.on('update', (u: Uint8Array) => void log.append(u))
    const t = writer.getState().addTrack({ name: 'Pad', type: 'main', audioId: 'p', duration: 2 })
    for (let i = 0; i <= COMPACT_AFTER; i++) writer.getState().setControl(t.id, 'reverb', i % 100)
    writer.getState().removeTrack(t.id)
    writer.getState().addTrack({ name: 'Left', type: 'main', audioId: 'x', duration: 1 })
    expect(log.rows.length).toBeGreaterThan(COMPACT_AFTER)
    const logBytes = log.rows.reduce((n, row) => n + row.update.byteLength, 0)
    const a = creator(log, r)
    await a.sync.ready
    expect(log.compactions).toBe(1)
    expect(log.rows).toHaveLength(1)
    expect(log.rows[0]!.update.byteLength).toBeLessThan(logBytes / 4)
    await stop(a.sync)
    const b = creator(log, r)
    await b.sync.ready
    expect(b.s().tracks.map((x) => x.name)).toEqual(['Left'])
    expect(sameJson(readMix(b.store.collab.doc), readMix(writer.collab.doc))).toBe(true)
    await stop(b.sync)
  })

  it('presence: who is in the project and what they have selected is seen by newcomers, and leaving is seen at once', async () => {
    const r = new Room()
    const log = new FakeLog()
    const join = (name: string) => {
      const doc = new Y.Doc()
      const awareness = new Awareness(doc)
      awareness.setLocalState({ name, colour: '#f0a', selectedTrackId: null })
      const sync = startProjectSync({ doc, channel: r.join(), log, canWrite: true, awareness })
      return { awareness, sync }
    }
    const names = (a: Awareness) => [...a.getStates().values()].map((s) => s.name as string).sort()
    const a = join('ana')
    await a.sync.ready
    const b = join('ben')
    await b.sync.ready
    expect(names(b.awareness)).toEqual(['ana', 'ben'])
    expect(names(a.awareness)).toEqual(['ana', 'ben'])
    b.awareness.setLocalStateField('selectedTrackId', 't-1')
    expect([...a.awareness.getStates().values()].find((s) => s.name === 'ben')?.selectedTrackId).toBe('t-1')
    await b.sync.stop()
    expect(names(a.awareness)).toEqual(['ana'])
    await a.sync.stop()
    a.awareness.destroy()
    b.awareness.destroy()
  })

  it("a viewer, whose broadcasts the room refuses, is still seen through the room's presence and sees the others", async () => {
    const r = new Room()
    const log = new FakeLog()
    /** A member as the server treats it: a viewer's sends are dropped; presence reaches everyone. */
    const join = (name: string, canWrite: boolean) => {
      const doc = new Y.Doc()
      const awareness = new Awareness(doc)
      awareness.setLocalState({ name, colour: '#f0a', selectedTrackId: null })
      const channel = r.join()
      const sent: string[] = []
      const send = channel.send.bind(channel)
      channel.send = (m) => {
        sent.push('broadcast')
        if (canWrite) send(m)
      }
      ;(channel as ProjectChannel).sendPresence = (m) => {
        sent.push('presence')
        send(m)
      }
      const sync = startProjectSync({ doc, channel, log, canWrite, awareness })
      return { awareness, sync, sent }
    }
    const names = (a: Awareness) => [...a.getStates().values()].map((s) => s.name as string).sort()
    const owner = join('ana', true)
    await owner.sync.ready
    const viewer = join('vic', false)
    await viewer.sync.ready
    expect(names(owner.awareness)).toEqual(['ana', 'vic'])
    expect(names(viewer.awareness)).toEqual(['ana', 'vic'])
    viewer.awareness.setLocalStateField('selectedTrackId', 't-2')
    expect([...owner.awareness.getStates().values()].find((s) => s.name === 'vic')?.selectedTrackId).toBe('t-2')
    // The owner keeps broadcasting its presence; the viewer's presence never went as a broadcast.
    expect(owner.sent).not.toContain('presence')
    expect(viewer.sent.filter((k) => k === 'presence').length).toBeGreaterThan(0)
    await viewer.sync.stop()
    expect(names(owner.awareness)).toEqual(['ana'])
    await owner.sync.stop()
    owner.awareness.destroy()
    viewer.awareness.destroy()
  })

  it('presence over its bounds is refused whole and never applied: a huge state, or a flood of creators', async () => {
    const r = new Room()
    const log = new FakeLog()
    const doc = new Y.Doc()
    const awareness = new Awareness(doc)
    awareness.setLocalState({ name: 'ana' })
    const refusals: string[] = []
    const sync = startProjectSync({ doc, channel: r.join(), log, canWrite: true, awareness, onRefused: (why) => refusals.push(why) })
    await sync.ready
    const raw = r.join()
    const send = (states: [number, unknown][]) => {
      const update = encoding.createEncoder()
      encoding.writeVarUint(update, states.length)
      for (const [id, state] of states) {
        encoding.writeVarUint(update, id)
        encoding.writeVarUint(update, 1)
        encoding.writeVarString(update, JSON.stringify(state))
      }
      const m = encoding.createEncoder()
      encoding.writeVarUint(m, MESSAGE_AWARENESS)
      encoding.writeVarUint8Array(m, encoding.toUint8Array(update))
      raw.send(encoding.toUint8Array(m))
    }
    send([[901, { name: 'mallory', notes: ['x'.repeat(MAX_PRESENCE_BYTES)] }]])
    send(Array.from({ length: MAX_PRESENCE_CLIENTS }, (_, i) => [1000 + i, { name: `bot${i}` }] as [number, unknown]))
    expect(refusals).toEqual([
      `Refused a presence state of ${MAX_PRESENCE_BYTES + 31} characters (over ${MAX_PRESENCE_BYTES}) from the channel.`,
      `Refused presence for more than ${MAX_PRESENCE_CLIENTS} creators from the channel.`,
    ])
    expect([...awareness.getStates().keys()]).toEqual([doc.clientID])
    // Within bounds it is applied: one creator more.
    send([[902, { name: 'ben' }]])
    expect(awareness.getStates().get(902)).toEqual({ name: 'ben' })
    await sync.stop()
    awareness.destroy()
  })
})
