import { describe, expect, it } from 'vitest'
import type { StoredAudio } from '../../engine/project-db.ts'
import type { MixerTrack } from '../../engine/mixer-model.ts'
import { startSharedAudio, type SharedAudioIo, type SharedAudioStatus } from './shared-audio.ts'

// Shared audio between two studios over a fake Storage: what the editor holds is uploaded once,
// what the collaborator lacks is fetched and handed to its engine, audio not uploaded yet is
// asked for again until it is there; instrument tracks are left alone.

const audio = (id: string, v = 0.25): StoredAudio => ({ id, sampleRate: 8000, channels: [new Float32Array([v, -v, v])] })
const track = (audioId: string, instrument = false) =>
  ({ id: `t-${audioId}`, audioId, ...(instrument && { instrument: {} }) }) as unknown as MixerTrack

function studio(storage: Map<string, ArrayBuffer>, engine: Map<string, StoredAudio>, uploads: string[]): SharedAudioIo {
  return {
    has: (id) => engine.has(id),
    get: (id) => engine.get(id),
    put: (a) => void engine.set(a.id, a),
    local: async () => undefined,
    path: async (id) => (storage.has(id) ? `u/p/${id}.wav` : null),
    upload: async (id, wav) => {
      uploads.push(id)
      storage.set(id, wav)
    },
    download: async (path) => storage.get(path.split('/')[2]!.replace('.wav', ''))!,
    // A stand-in for WAV: the samples' bytes, with the rate in front.
    encode: async (a) => new Float32Array([a.sampleRate, ...a.channels[0]!]).buffer,
    decode: async (wav) => {
      const f = new Float32Array(wav)
      return { sampleRate: f[0]!, channels: [f.slice(1)] }
    },
  }
}

describe('startSharedAudio', () => {
  it('the editor uploads each track’s audio once; the collaborator fetches it; an instrument track is skipped', async () => {
    const storage = new Map<string, ArrayBuffer>()
    const uploads: string[] = []
    const editorEngine = new Map([['rec-1', audio('rec-1')]])
    let tracks = [track('rec-1'), track('render-1', true)]
    const listeners = new Set<() => void>()
    const editor = startSharedAudio({
      tracks: () => tracks,
      onTracks: (cb) => (listeners.add(cb), () => listeners.delete(cb)),
      canWrite: true,
      io: studio(storage, editorEngine, uploads),
    })
    await editor.settled()
    expect(uploads).toEqual(['rec-1'])

    const theirEngine = new Map<string, StoredAudio>()
    const seen: [string, SharedAudioStatus][] = []
    const viewer = startSharedAudio({
      tracks: () => tracks,
      onTracks: () => () => {},
      canWrite: false,
      io: studio(storage, theirEngine, []),
      onStatus: (id, s) => seen.push([id, s]),
    })
    await viewer.settled()
    expect([...theirEngine.keys()]).toEqual(['rec-1'])
    expect([...theirEngine.get('rec-1')!.channels[0]!]).toEqual([0.25, -0.25, 0.25])
    expect(theirEngine.get('rec-1')!.sampleRate).toBe(8000)
    expect(seen).toEqual([
      ['rec-1', 'fetching'],
      ['rec-1', 'here'],
    ])

    // A new track: uploaded once more, the old one not again.
    editorEngine.set('rec-2', audio('rec-2', 0.5))
    tracks = [...tracks, track('rec-2')]
    for (const l of listeners) l()
    for (const l of listeners) l()
    await editor.settled()
    expect(uploads).toEqual(['rec-1', 'rec-2'])
    editor.stop()
    viewer.stop()
  })

  it('audio not uploaded yet is asked for again until it arrives', async () => {
    const storage = new Map<string, ArrayBuffer>()
    const engine = new Map<string, StoredAudio>()
    const seen: SharedAudioStatus[] = []
    const s = startSharedAudio({
      tracks: () => [track('rec-9')],
      onTracks: () => () => {},
      canWrite: false,
      io: studio(storage, engine, []),
      retryMs: 20,
      onStatus: (_, st) => seen.push(st),
    })
    await s.settled()
    expect(seen).toEqual(['fetching', 'waiting'])
    storage.set('rec-9', new Float32Array([44100, 0.1]).buffer)
    await expect.poll(() => engine.has('rec-9'), { timeout: 1000 }).toBe(true)
    expect(seen.at(-1)).toBe('here')
    s.stop()
  })
})
