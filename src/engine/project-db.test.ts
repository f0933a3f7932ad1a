import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { createTrack, MASTER_DEFAULTS, type MixerState } from './mixer-model.ts'
import { clearDraft, deleteProject, getAudio, getDraft, saveDraft, saveProject, storedAudioIds, type StoredAudio } from './project-db.ts'

const audio = (id: string, seed: number): StoredAudio => ({
  id,
  sampleRate: 44100,
  channels: [Float32Array.from({ length: 64 }, (_, i) => Math.sin(i * seed) * 0.5), new Float32Array([seed, -seed, 1e-7])],
})
const track = (id: string) => createTrack({ id: `t-${id}`, name: id, type: 'main', audioId: id, duration: 1 })
const mix = (...ids: string[]): MixerState => ({ tracks: ids.map(track), master: { ...MASTER_DEFAULTS, volume: 42 } })
const memory = new Map([audio('a', 1), audio('b', 2), audio('c', 3)].map((a) => [a.id, a]))
const lookup = (id: string) => memory.get(id)

// One database for the file, as in the app: each test builds on what the previous left.
describe('mix draft in IndexedDB', () => {
  it('round-trips the mix, its project and its audio bit for bit', async () => {
    expect(await getDraft()).toBeUndefined()
    await saveDraft({ state: mix('a', 'b'), project: { id: 'p1', name: 'Night' }, savedAt: 123 }, lookup)
    const d = (await getDraft())!
    expect(d).toEqual({ state: mix('a', 'b'), project: { id: 'p1', name: 'Night' }, savedAt: 123 })
    expect((await getAudio('a'))!.channels).toEqual(memory.get('a')!.channels)
    expect((await getAudio('b'))!.channels[1]).toEqual(new Float32Array([2, -2, 1e-7]))
    expect((await storedAudioIds()).sort()).toEqual(['a', 'b'])
  })

  it('a newer draft replaces the old one and its orphaned audio is deleted, unless a project uses it', async () => {
    await saveProject({ id: 'p1', name: 'Night', createdAt: 1, updatedAt: 1, state: mix('a') }, lookup)
    await saveDraft({ state: mix('c'), project: null, savedAt: 2 }, lookup)
    expect((await getDraft())!.state.tracks.map((t) => t.audioId)).toEqual(['c'])
    // 'b' was only the old draft's: gone. 'a' belongs to the saved project: kept.
    expect((await storedAudioIds()).sort()).toEqual(['a', 'c'])
  })

  it('deleting a project keeps audio the draft still refers to', async () => {
    await saveDraft({ state: mix('a', 'c'), project: null, savedAt: 3 }, lookup)
    await deleteProject('p1')
    expect((await storedAudioIds()).sort()).toEqual(['a', 'c'])
    expect((await getAudio('a'))!.channels).toEqual(memory.get('a')!.channels)
  })

  it('audio the caller no longer has is skipped without failing the draft', async () => {
    await saveDraft({ state: mix('c', 'gone'), project: null, savedAt: 4 }, lookup)
    expect((await getDraft())!.savedAt).toBe(4)
    expect((await storedAudioIds()).sort()).toEqual(['c'])
  })

  it('clearing the draft removes it and every audio no project needs', async () => {
    await saveProject({ id: 'p2', name: 'Keep', createdAt: 1, updatedAt: 1, state: mix('b') }, lookup)
    await clearDraft()
    expect(await getDraft()).toBeUndefined()
    expect(await storedAudioIds()).toEqual(['b'])
  })
})
