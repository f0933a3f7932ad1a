import { describe, expect, it, vi } from 'vitest'

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(() => undefined, { error: () => undefined, success: () => undefined }) }))
import * as Y from 'yjs'
import { undoLabel } from './edit-history.ts'
import { createMixerStore } from './mixer-store.ts'

// Two creators on one project, their documents wired directly (every update arrives at once):
// each one's undo takes back only their own edits.

const NET = Symbol('network')
function pair() {
  const a = createMixerStore(new Y.Doc())
  const b = createMixerStore(new Y.Doc())
  const wire = (from: typeof a, to: typeof a) =>
    from.collab.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin !== NET) Y.applyUpdate(to.collab.doc, u, NET)
    })
  wire(a, b)
  wire(b, a)
  return { a: () => a.getState(), b: () => b.getState() }
}

describe('undo with collaborators', () => {
  it("undo reverts my change to a track and keeps a collaborator's change to the same track", () => {
    const { a, b } = pair()
    const t = a().addTrack({ name: 'Bass', type: 'main', audioId: 'bass', duration: 4 })
    a().setControl(t.id, 'volume', 33)
    b().setControl(t.id, 'pan', -20)
    expect(b().tracks[0]).toMatchObject({ volume: 33, pan: -20 })
    a().undo()
    expect(a().tracks[0]).toMatchObject({ volume: 70, pan: -20 })
    expect(b().tracks[0]).toMatchObject({ volume: 70, pan: -20 })
    b().undo()
    expect(a().tracks[0]).toMatchObject({ volume: 70, pan: 0 })
    a().redo()
    expect(b().tracks[0]).toMatchObject({ volume: 33, pan: 0 })
  })

  it('undoing my last edit never removes a track a collaborator added after it', () => {
    const { a, b } = pair()
    a().addTrack({ name: 'Drums', type: 'main', audioId: 'drums', duration: 4 })
    b().addTrack({ name: 'Keys', type: 'main', audioId: 'keys', duration: 4 })
    a().undo()
    expect(a().tracks.map((t) => t.name)).toEqual(['Keys'])
    expect(b().tracks.map((t) => t.name)).toEqual(['Keys'])
    expect(undoLabel(b().history)).toBe('Add Keys')
  })

  it("a collaborator's edits are not undo steps of mine, and show in my studio as they arrive", () => {
    const { a, b } = pair()
    const t = a().addTrack({ name: 'Lead', type: 'main', audioId: 'lead', duration: 2 })
    expect(b().history.past).toHaveLength(0)
    a().setTempo(90)
    a().setMaster('volume', 40)
    expect(b().tempo).toBe(90)
    expect(b().master.volume).toBe(40)
    expect(b().tracks.map((x) => x.id)).toEqual([t.id])
    b().undo()
    expect(b().tempo).toBe(90)
    expect(a().history.past).toHaveLength(3)
  })

  it('after a collaborator removed the track my edit was on, undo skips it and the step list follows', () => {
    const { a, b } = pair()
    const t = b().addTrack({ name: 'Pad', type: 'main', audioId: 'pad', duration: 2 })
    a().setControl(t.id, 'reverb', 90)
    b().removeTrack(t.id)
    a().undo()
    expect(a().tracks).toEqual([])
    expect(b().tracks).toEqual([])
    expect(a().history.past).toHaveLength(0)
  })

  it('opening another project starts a fresh document: nothing of it reaches the shared one', () => {
    const store = createMixerStore(new Y.Doc())
    const shared = store.collab.doc
    store.getState().addTrack({ name: 'Shared', type: 'main', audioId: 's', duration: 1 })
    store.getState().load({ tracks: [], master: { volume: 50, reverb: 50 } }, { id: 'p2', name: 'Private' })
    store.getState().addTrack({ name: 'Secret', type: 'main', audioId: 'x', duration: 1 })
    expect(store.collab.doc).not.toBe(shared)
    expect(
      shared
        .getArray('tracks')
        .toJSON()
        .map((t: { name: string }) => t.name),
    ).toEqual(['Shared'])
    expect(shared.getMap('master').get('volume')).not.toBe(50)
  })
})
