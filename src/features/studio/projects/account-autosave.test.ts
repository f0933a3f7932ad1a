import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { createMixerStore } from '../../../domain/studio/mixer-store.ts'
import { startAccountAutosave, QUIET_MS } from './account-autosave.ts'

/** A mixer with one track, saved as project p1; `save` marks what it saved as saved, as saveCurrent does. */
function setup(eligible = (_id: string) => true) {
  const store = createMixerStore(new Y.Doc())
  const track = store.getState().addTrack({ name: 'Kick', type: 'main', audioId: 'kick', duration: 2 })
  const snapshot = () => {
    const s = store.getState()
    return { tracks: s.tracks, master: s.master, tempo: s.tempo }
  }
  store.getState().markSaved(snapshot(), { id: 'p1', name: 'Project 1' })
  const saved: number[] = []
  const stop = startAccountAutosave({
    store,
    eligible,
    save: async () => {
      saved.push(store.getState().tracks[0]!.volume)
      store.getState().markSaved(snapshot(), { id: 'p1', name: 'Project 1' })
    },
  })
  return { store, track, saved, stop }
}

describe('account autosave of an open project', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('saves once, QUIET_MS after the last edit of a burst', async () => {
    const { store, track, saved, stop } = setup()
    store.getState().setControl(track.id, 'volume', 40)
    await vi.advanceTimersByTimeAsync(QUIET_MS - 500)
    store.getState().setControl(track.id, 'volume', 50)
    await vi.advanceTimersByTimeAsync(QUIET_MS - 1)
    expect(saved).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(saved).toEqual([50])
    // Nothing changed since: nothing more is saved.
    await vi.advanceTimersByTimeAsync(QUIET_MS * 3)
    expect(saved).toEqual([50])
    stop()
  })

  it('saves nothing for a project that is not the creator’s to save, nor a mix never saved as a project', async () => {
    const other = setup(() => false)
    other.store.getState().setControl(other.track.id, 'volume', 10)
    await vi.advanceTimersByTimeAsync(QUIET_MS * 2)
    expect(other.saved).toEqual([])
    other.stop()

    const fresh = setup()
    fresh.store.getState().setProject(null)
    fresh.store.getState().setControl(fresh.track.id, 'volume', 10)
    await vi.advanceTimersByTimeAsync(QUIET_MS * 2)
    expect(fresh.saved).toEqual([])
    fresh.stop()
  })

  it('an edit during a save is saved after it', async () => {
    const store = createMixerStore(new Y.Doc())
    const track = store.getState().addTrack({ name: 'Kick', type: 'main', audioId: 'kick', duration: 2 })
    const snap = () => ({ tracks: store.getState().tracks, master: store.getState().master, tempo: store.getState().tempo })
    store.getState().markSaved(snap(), { id: 'p1', name: 'Project 1' })
    const saved: number[] = []
    let finish: () => void = () => undefined
    const stop = startAccountAutosave({
      store,
      eligible: () => true,
      save: async () => {
        const state = snap()
        saved.push(state.tracks[0]!.volume)
        await new Promise<void>((r) => (finish = r))
        store.getState().markSaved(state, { id: 'p1', name: 'Project 1' })
      },
    })
    store.getState().setControl(track.id, 'volume', 20)
    await vi.advanceTimersByTimeAsync(QUIET_MS)
    expect(saved).toEqual([20])
    store.getState().setControl(track.id, 'volume', 30)
    await vi.advanceTimersByTimeAsync(QUIET_MS)
    finish()
    await vi.advanceTimersByTimeAsync(QUIET_MS)
    finish()
    expect(saved).toEqual([20, 30])
    stop()
  })
})
