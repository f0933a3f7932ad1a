import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

type Sent = { title: string; action?: { label: string; onClick: () => void } }
const notices: Sent[] = []
vi.mock('../../../lib/notify.ts', () => ({
  notify: Object.assign((title: string, o: Omit<Sent, 'title'> = {}) => void notices.push({ title, ...o }), {
    error: (title: string) => void notices.push({ title }),
    success: (title: string) => void notices.push({ title }),
  }),
}))
import { dropUnusedAudio, getMixerAudio, putMixerAudio } from '../../../engine/mixer-audio.ts'
import { getDraft, saveProject, storedAudioIds } from '../../../engine/project-db.ts'
import { addAudioToMixer, mixerSnapshot, useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { startMixAutosave, type MixAutosave } from './mix-autosave.ts'
import { useDraftNotice } from './draft-notice.ts'

const store = () => useMixerStore.getState()
const page = () => Object.assign(new EventTarget(), { document: { visibilityState: 'visible' as DocumentVisibilityState } })
let running: MixAutosave | null = null
/** A fresh page: nothing in memory but what IndexedDB kept, then the service starts. */
async function reload(target = page()) {
  running?.stop()
  store().reset()
  dropUnusedAudio(new Set())
  notices.length = 0
  useDraftNotice.setState({ restored: null, acknowledged: false })
  running = startMixAutosave({ debounceMs: 20, target })
  await running.restored
  await running.flush()
  return running
}
const waitForDraft = (pred: (d: Awaited<ReturnType<typeof getDraft>>) => boolean) =>
  vi.waitFor(async () => expect(pred(await getDraft())).toBe(true), { timeout: 2000, interval: 10 })

describe('mix autosave', () => {
  beforeEach(async () => {
    // Each test starts from an empty mixer and no draft ("Start fresh" on what the last one left).
    await reload()
    store().reset()
    await running!.flush()
    notices.length = 0
  })
  afterEach(() => running?.stop())

  it('every change is saved (debounced) and comes back after a reload with its audio and a notice', async () => {
    const t = addAudioToMixer({ name: 'Tone', sampleRate: 8000, channels: [Float32Array.from({ length: 800 }, (_, i) => Math.sin(i / 3))] })
    store().setControl(t.id, 'volume', 33)
    store().setMaster('reverb', 77)
    await waitForDraft((d) => d?.state.tracks[0]?.volume === 33 && d.state.master.reverb === 77)
    const before = mixerSnapshot()
    const audio = getMixerAudio(t.audioId)!

    await reload()
    expect(mixerSnapshot()).toEqual(before)
    expect(getMixerAudio(t.audioId)!.channels).toEqual(audio.channels)
    // Announced to the studio (not as a toast on whatever page loaded).
    expect(useDraftNotice.getState().restored).toEqual({ tracks: 1, project: null, missing: [] })
    expect(notices).toHaveLength(0)
    // The restore is not an undo step, and the restored mix is still unsaved.
    expect(store().history.past).toHaveLength(0)
    expect((await getDraft())?.state.tracks).toHaveLength(1)
  })

  it('Discard empties the mixer and deletes the draft and its audio', async () => {
    addAudioToMixer({ name: 'Tone', sampleRate: 8000, channels: [new Float32Array(80).fill(0.25)] })
    await waitForDraft((d) => !!d)
    await reload()
    expect(useDraftNotice.getState().restored?.tracks).toBe(1)
    // What the banner's Discard does.
    store().reset()
    expect(useDraftNotice.getState().restored).toBeNull()
    expect(store().tracks).toHaveLength(0)
    await waitForDraft((d) => d === undefined)
    expect(await storedAudioIds()).toEqual([])
    await reload()
    expect(store().tracks).toHaveLength(0)
    expect(useDraftNotice.getState().restored).toBeNull()
  })

  it('Keep is remembered by the draft: later reloads restore the mix without a notice, until a new mix starts', async () => {
    addAudioToMixer({ name: 'Tone', sampleRate: 8000, channels: [new Float32Array(80).fill(0.25)] })
    await waitForDraft((d) => !!d)
    await reload()
    expect(useDraftNotice.getState().restored).not.toBeNull()
    useDraftNotice.getState().acknowledge()
    await waitForDraft((d) => d?.acknowledged === true)
    await reload()
    expect(store().tracks).toHaveLength(1)
    expect(useDraftNotice.getState()).toMatchObject({ restored: null, acknowledged: true })
    // Emptied and a new mix begun: that one is announced after a reload.
    store().reset()
    addAudioToMixer({ name: 'Fresh', sampleRate: 8000, channels: [new Float32Array(80).fill(0.5)] })
    await waitForDraft((d) => d?.state.tracks[0]?.name === 'Fresh' && !d.acknowledged)
    await reload()
    expect(useDraftNotice.getState().restored?.tracks).toBe(1)
  })

  it('a pagehide writes at once, without waiting for the debounce', async () => {
    const target = page()
    running!.stop()
    running = startMixAutosave({ debounceMs: 60_000, target })
    await running.restored
    await running.flush()
    addAudioToMixer({ name: 'Late', sampleRate: 8000, channels: [new Float32Array(80).fill(0.5)] })
    target.dispatchEvent(new Event('pagehide'))
    await waitForDraft((d) => d?.state.tracks[0]?.name === 'Late')
  })

  it('a mix just saved as a project keeps no draft; editing it again does, with the project ref', async () => {
    const t = addAudioToMixer({ name: 'Keep', sampleRate: 8000, channels: [new Float32Array(80).fill(0.1)] })
    await waitForDraft((d) => !!d)
    const state = mixerSnapshot()
    await saveProject({ id: 'p1', name: 'Song', createdAt: 1, updatedAt: 1, state }, getMixerAudio)
    store().markSaved(state, { id: 'p1', name: 'Song' })
    await waitForDraft((d) => d === undefined)
    // The project keeps its audio even though the draft is gone.
    expect(await storedAudioIds()).toEqual([t.audioId])

    store().setControl(t.id, 'pan', 25)
    await waitForDraft((d) => d?.project?.id === 'p1' && d.state.tracks[0]?.pan === 25)
    await reload()
    expect(store().project).toEqual({ id: 'p1', name: 'Song' })
    expect(store().tracks[0]!.pan).toBe(25)
  })

  it('an undone removal is saved with its audio again, though the removal had deleted it from the database', async () => {
    const a = addAudioToMixer({ name: 'A', sampleRate: 8000, channels: [new Float32Array(80).fill(0.3)] })
    addAudioToMixer({ name: 'B', sampleRate: 8000, channels: [new Float32Array(80).fill(0.6)] })
    await waitForDraft((d) => d?.state.tracks.length === 2)
    store().removeTrack(a.id)
    await waitForDraft((d) => d?.state.tracks.length === 1)
    await vi.waitFor(async () => expect(await storedAudioIds()).not.toContain(a.audioId))
    store().undo()
    await waitForDraft((d) => d?.state.tracks.length === 2)
    expect(await storedAudioIds()).toContain(a.audioId)
    await reload()
    expect(store().tracks.map((t) => t.name)).toEqual(['A', 'B'])
    expect(getMixerAudio(a.audioId)!.channels[0]![0]).toBeCloseTo(0.3)
  })

  it('a draft equal to the project it names (the save landed, its clearing write did not) is dropped silently', async () => {
    const t = addAudioToMixer({ name: 'Same', sampleRate: 8000, channels: [new Float32Array(80).fill(0.2)] })
    store().setProject({ id: 'p9', name: 'Nine' })
    await waitForDraft((d) => d?.project?.id === 'p9')
    await saveProject({ id: 'p9', name: 'Nine', createdAt: 1, updatedAt: 1, state: mixerSnapshot() }, getMixerAudio)
    await reload()
    expect(store().tracks).toHaveLength(0)
    expect(useDraftNotice.getState().restored).toBeNull()
    expect(await getDraft()).toBeUndefined()
    expect(await storedAudioIds()).toContain(t.audioId)
  })

  it('a draft whose audio is gone from memory and database is not restored', async () => {
    putMixerAudio({ id: 'ghost', sampleRate: 8000, channels: [new Float32Array(8)] })
    store().addTrack({ name: 'Ghost', type: 'main', audioId: 'ghost-missing', duration: 1 })
    await waitForDraft((d) => d?.state.tracks.length === 1)
    await reload()
    expect(store().tracks).toHaveLength(0)
  })
})
