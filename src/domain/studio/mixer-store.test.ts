import { beforeEach, describe, expect, it, vi } from 'vitest'

const errors: string[] = []
vi.mock('../../lib/notify.ts', () => ({
  notify: Object.assign(() => undefined, { error: (m: string) => void errors.push(m), success: () => undefined }),
}))
import {
  MASTER_DEFAULTS,
  TRACK_DEFAULTS,
  clampControl,
  mixDuration,
  nextRecordingName,
  panLabel,
  sanitizeState,
} from '../../engine/mixer-model.ts'
import { getMixerAudio } from '../../engine/mixer-audio.ts'
import { addAudioToMixer, MAX_TRACK_NAME, mixerSnapshot, TRACK_NAME_TOO_LONG, useMixerStore } from './mixer-store.ts'
import { defaultProjectName } from '../../features/studio/projects/project-store.ts'

const add = (name: string, type: 'main' | 'effect' | 'recording' = 'main', duration = 2, offset = 0) =>
  useMixerStore.getState().addTrack({ name, type, audioId: `a-${name}`, duration, offset })

describe('mixer defaults', () => {
  beforeEach(() => useMixerStore.getState().reset())

  it('a new track has the product defaults: volume 70, pan 0, reverb 20, effects 0, enabled', () => {
    const t = add('Beat')
    expect(t).toMatchObject({ volume: 70, pan: 0, reverb: 20, enabled: true, type: 'main', offset: 0 })
    expect(Object.values(t.effects)).toEqual([0, 0, 0, 0, 0, 0])
    expect(Object.keys(t.effects)).toEqual(['lowpass', 'highpass', 'distortion', 'delay', 'compression', 'chorus'])
    expect(TRACK_DEFAULTS.volume).toBe(70)
  })

  it('master starts at volume 80 and reverb 30', () => {
    expect(useMixerStore.getState().master).toEqual({ volume: 80, reverb: 30 })
    expect(MASTER_DEFAULTS).toEqual({ volume: 80, reverb: 30 })
  })

  it('adding a track selects it; removing the selected one selects the first left', () => {
    const a = add('A')
    const b = add('B')
    expect(useMixerStore.getState().selectedId).toBe(b.id)
    useMixerStore.getState().removeTrack(b.id)
    expect(useMixerStore.getState().selectedId).toBe(a.id)
    expect(useMixerStore.getState().tracks.map((t) => t.name)).toEqual(['A'])
  })
})

describe("'Recording N' naming", () => {
  beforeEach(() => useMixerStore.getState().reset())

  it('N is the number of recording tracks plus one, ignoring other types', () => {
    add('Drums', 'effect')
    add('Song', 'main')
    expect(useMixerStore.getState().addRecording({ audioId: 'r1', duration: 1 }).name).toBe('Recording 1')
    expect(useMixerStore.getState().addRecording({ audioId: 'r2', duration: 1 }).name).toBe('Recording 2')
    expect(useMixerStore.getState().tracks.filter((t) => t.type === 'recording')).toHaveLength(2)
  })

  it('counts recordings left after a deletion (so names may repeat, as specified)', () => {
    const r1 = useMixerStore.getState().addRecording({ audioId: 'r1', duration: 1 })
    useMixerStore.getState().addRecording({ audioId: 'r2', duration: 1 })
    useMixerStore.getState().removeTrack(r1.id)
    expect(nextRecordingName(useMixerStore.getState().tracks)).toBe('Recording 2')
  })
})

describe('pan label', () => {
  it.each([
    [0, 'C'],
    [-50, 'L50'],
    [-1, 'L1'],
    [25, 'R25'],
    [50, 'R50'],
    [0.4, 'C'],
    [-12.6, 'L13'],
  ])('%d → %s', (pan, label) => expect(panLabel(pan)).toBe(label))
})

describe('controls', () => {
  beforeEach(() => useMixerStore.getState().reset())

  it('clamp to integer ranges: 0–100, pan -50..50, NaN to the low end', () => {
    expect(clampControl('volume', 140)).toBe(100)
    expect(clampControl('pan', -80)).toBe(-50)
    expect(clampControl('lowpass', 20.4)).toBe(20)
    expect(clampControl('reverb', Number.NaN)).toBe(0)
  })

  it('setControl changes only that control of that track; setEnabled toggles', () => {
    const a = add('A')
    const b = add('B')
    useMixerStore.getState().setControl(a.id, 'lowpass', 20)
    useMixerStore.getState().setControl(a.id, 'pan', -50)
    useMixerStore.getState().setEnabled(b.id, false)
    const [ta, tb] = useMixerStore.getState().tracks
    expect(ta!.effects.lowpass).toBe(20)
    expect(ta!.pan).toBe(-50)
    expect(ta!.enabled).toBe(true)
    expect(tb!.effects.lowpass).toBe(0)
    expect(tb!.enabled).toBe(false)
    useMixerStore.getState().setMaster('volume', 55)
    expect(mixerSnapshot().master).toEqual({ volume: 55, reverb: 30 })
  })

  it('mix length is where the last track ends (offsets included)', () => {
    add('A', 'main', 3)
    add('B', 'recording', 2, 2.5)
    expect(mixDuration(mixerSnapshot())).toBeCloseTo(4.5)
  })
})

describe('persisted state repair', () => {
  it('fills missing fields with defaults, clamps values and drops broken tracks', () => {
    const s = sanitizeState({
      master: { volume: 500 },
      tracks: [{ id: 't1', audioId: 'a1', name: 'X', type: 'weird', volume: -3, effects: { chorus: 40 } }, { name: 'no id' }, null],
    })
    expect(s.master).toEqual({ volume: 100, reverb: 30 })
    expect(s.tracks).toHaveLength(1)
    expect(s.tracks[0]).toMatchObject({ type: 'main', volume: 0, pan: 0, reverb: 20, enabled: true })
    expect(s.tracks[0]!.effects).toMatchObject({ chorus: 40, lowpass: 0 })
    expect(sanitizeState(undefined)).toEqual({ tracks: [], master: { volume: 80, reverb: 30 } })
  })

  it('default project names do not collide', () => {
    expect(defaultProjectName([])).toBe('Project 1')
    expect(defaultProjectName([{ name: 'Project 2' }])).toBe('Project 3')
    expect(defaultProjectName([{ name: 'Project 2' }, { name: 'Project 3' }])).toBe('Project 4')
  })
})

describe('addAudioToMixer', () => {
  beforeEach(() => useMixerStore.getState().reset())

  it('registers the audio and adds a track of its length', () => {
    const t = addAudioToMixer({
      name: 'Upbeat Electronic',
      sampleRate: 48000,
      channels: [new Float32Array(96000), new Float32Array(96000)],
    })
    expect(t).toMatchObject({ name: 'Upbeat Electronic', type: 'main', duration: 2, volume: 70 })
    expect(getMixerAudio(t.audioId)!.channels).toHaveLength(2)
    expect(() => addAudioToMixer({ name: 'x', sampleRate: 48000, channels: [] })).toThrow(/no audio/)
  })
})

describe('track name limits', () => {
  beforeEach(() => {
    useMixerStore.getState().reset()
    errors.length = 0
  })

  it('renames up to 80 characters; 81 is refused with a clear message, blank is ignored', () => {
    const t = add('Beat')
    expect(MAX_TRACK_NAME).toBe(80)
    expect(useMixerStore.getState().renameTrack(t.id, 'x'.repeat(81))).toBe(false)
    expect(errors).toEqual([TRACK_NAME_TOO_LONG])
    expect(TRACK_NAME_TOO_LONG).toBe('Track name must be at most 80 characters')
    expect(useMixerStore.getState().tracks[0]!.name).toBe('Beat')
    expect(useMixerStore.getState().renameTrack(t.id, '   ')).toBe(false)
    expect(useMixerStore.getState().renameTrack(t.id, ` ${'y'.repeat(80)} `)).toBe(true)
    expect(useMixerStore.getState().tracks[0]!.name).toBe('y'.repeat(80))
  })

  it('a new track with a longer name (e.g. an uploaded file) is cut to 80 characters', () => {
    expect(add('z'.repeat(200)).name).toHaveLength(80)
  })
})
