import { describe, expect, it } from 'vitest'
import { parseManifest, ProjectCopyError } from './studio-project-copies.ts'
import { createTrack } from '../../../engine/mixer-model.ts'

const ID = '0b7c6a36-2f1d-4b8e-9a55-3c1f0e2d4a61'

function manifest() {
  const track = createTrack({ id: 't1', name: 'Bass', type: 'main', audioId: 'audio-1', duration: 2 })
  track.volume = 40
  return {
    format: 'cube-studio-project',
    version: 1,
    id: ID,
    name: 'Night Drive',
    createdAt: 1,
    updatedAt: 2,
    state: { tracks: [track], master: { volume: 80, reverb: 30 } },
    audio: [{ id: 'audio-1', file: 'audio-1.wav', sampleRate: 48000, channels: 2, frames: 96000 }],
  }
}

describe('project copy manifests', () => {
  it('accepts a well-formed manifest and keeps the mix as saved', () => {
    const m = parseManifest(manifest(), ID)
    expect(m.name).toBe('Night Drive')
    expect(m.state.tracks[0]!.volume).toBe(40)
    expect(m.audio).toEqual([{ id: 'audio-1', file: 'audio-1.wav', sampleRate: 48000, channels: 2, frames: 96000 }])
  })

  it('refuses damaged or foreign manifests with a ProjectCopyError that says why', () => {
    const cases: [string, (m: ReturnType<typeof manifest>) => unknown][] = [
      ['unknown manifest format', (m) => ({ ...m, format: 'other' })],
      ['unknown manifest format', () => null],
      ['belongs to another project', (m) => ({ ...m, id: 'someone-else' })],
      ['no name', (m) => ({ ...m, name: '  ' })],
      ['no dates', (m) => ({ ...m, updatedAt: 'yesterday' })],
      ['no audio list', (m) => ({ ...m, audio: {} })],
      // A file name that is not the audio id's own (e.g. a path out of the folder) is refused.
      ['malformed', (m) => ({ ...m, audio: [{ ...m.audio[0]!, file: '../other-user/x.wav' }] })],
      ['invalid format', (m) => ({ ...m, audio: [{ ...m.audio[0]!, channels: 0 }] })],
      ['invalid format', (m) => ({ ...m, audio: [{ ...m.audio[0]!, sampleRate: 44100.5 }] })],
      ['is not listed', (m) => ({ ...m, audio: [{ id: 'audio-2', file: 'audio-2.wav', sampleRate: 48000, channels: 1, frames: 1 }] })],
    ]
    for (const [why, mutate] of cases) {
      const run = () => parseManifest(mutate(manifest()), ID)
      expect(run).toThrow(ProjectCopyError)
      expect(run).toThrow(why)
    }
  })
})
