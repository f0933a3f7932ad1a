import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(() => undefined, { error: () => undefined, success: () => undefined }) }))
import { MASTER_DEFAULTS } from '../../engine/mixer-model.ts'
import { getMixerAudio } from '../../engine/mixer-audio.ts'
import { DEFAULT_HISTORY_LIMIT, redoLabel, undoLabel } from './edit-history.ts'
import { moveClip, splitClip, setClipGain } from '../../engine/arrangement/clip-edits.ts'
import { addAudioToMixer, hasUnsavedChanges, KEY_BURST_MS, mixerSnapshot, useMixerStore } from './mixer-store.ts'

const store = () => useMixerStore.getState()
const add = (name: string) => store().addTrack({ name, type: 'main', audioId: `a-${name}`, duration: 2 })
const steps = () => store().history.past.length

let clock = 1_000_000
const tick = (ms: number) => vi.setSystemTime((clock += ms))

describe('mixer undo/redo', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(clock)
    store().reset()
  })
  afterEach(() => vi.useRealTimers())

  it('every kind of mixer edit is one undo step, labelled, and undo/redo restore it exactly', () => {
    const t = add('Kick')
    const edits: [string, () => void][] = [
      ['Add Snare', () => add('Snare')],
      ['Rename track', () => store().renameTrack(t.id, 'Big Kick')],
      ['Volume change', () => store().setControl(t.id, 'volume', 33)],
      ['Pan change', () => store().setControl(t.id, 'pan', -20)],
      ['Delay change', () => store().setControl(t.id, 'delay', 40)],
      ['Disable Big Kick', () => store().setEnabled(t.id, false)],
      ['Master volume change', () => store().setMaster('volume', 10)],
      ['Master reverb change', () => store().setMaster('reverb', 90)],
      ['Add Recording 1', () => store().addRecording({ audioId: 'r1', duration: 1 })],
      ['Remove Big Kick', () => store().removeTrack(t.id)],
    ]
    const states = [mixerSnapshot()]
    for (const [label, run] of edits) {
      tick(1000)
      run()
      expect(undoLabel(store().history)).toBe(label)
      states.push(mixerSnapshot())
    }
    expect(steps()).toBe(edits.length + 1)
    for (let i = edits.length; i > 0; i--) {
      store().undo()
      expect(mixerSnapshot()).toEqual(states[i - 1])
      expect(redoLabel(store().history)).toBe(edits[i - 1]![0])
    }
    for (let i = 1; i <= edits.length; i++) {
      store().redo()
      expect(mixerSnapshot()).toEqual(states[i])
    }
  })

  it('120 separate edits undo back to the empty start and redo forward to the last', () => {
    const t = add('Pad')
    for (let i = 0; i < 120; i++) {
      tick(1000)
      store().setControl(t.id, 'volume', i % 2 === 0 ? 10 + (i % 50) : 90 - (i % 50))
    }
    const end = mixerSnapshot()
    expect(steps()).toBe(121)
    for (let i = 0; i < 121; i++) store().undo()
    expect(store().tracks).toEqual([])
    expect(store().master).toEqual(MASTER_DEFAULTS)
    expect(undoLabel(store().history)).toBeNull()
    for (let i = 0; i < 121; i++) store().redo()
    expect(mixerSnapshot()).toEqual(end)
    expect(store().tracks).toBe(end.tracks)
  })

  it('the history keeps the newest 200 steps (at least 100)', () => {
    const t = add('Pad')
    for (let i = 0; i < 300; i++) {
      tick(1000)
      store().setControl(t.id, 'pan', i % 2 ? 10 : -10)
    }
    expect(DEFAULT_HISTORY_LIMIT).toBeGreaterThanOrEqual(100)
    expect(steps()).toBe(DEFAULT_HISTORY_LIMIT)
  })

  it('one pointer drag (one gesture id) is one step; a keyboard burst on one control is one step', () => {
    const t = add('Lead')
    for (let v = 71; v <= 99; v++) {
      tick(2000) // a slow drag: time does not split a gesture
      store().setControl(t.id, 'volume', v, 'drag-1')
    }
    expect(steps()).toBe(2)
    for (let i = 0; i < 8; i++) {
      tick(KEY_BURST_MS - 100)
      store().setControl(t.id, 'reverb', 21 + i)
    }
    expect(steps()).toBe(3)
    tick(KEY_BURST_MS + 1)
    store().setControl(t.id, 'reverb', 50)
    expect(steps()).toBe(4)
    for (const m of [81, 82, 83]) store().setMaster('volume', m, 'drag-2')
    expect(steps()).toBe(5)

    store().undo() // master drag
    expect(store().master.volume).toBe(MASTER_DEFAULTS.volume)
    store().undo() // the late key press
    expect(store().tracks[0]!.reverb).toBe(28)
    store().undo() // the whole key burst
    expect(store().tracks[0]!.reverb).toBe(20)
    store().undo() // the whole drag
    expect(store().tracks[0]!.volume).toBe(70)
    store().redo()
    expect(store().tracks[0]!.volume).toBe(99)
  })

  it('a new edit after undo clears redo; no-op edits and selection are not steps', () => {
    const a = add('A')
    tick(1000)
    add('B')
    store().undo()
    expect(redoLabel(store().history)).toBe('Add B')
    tick(1000)
    store().setControl(a.id, 'volume', 5)
    expect(redoLabel(store().history)).toBeNull()
    store().redo()
    expect(store().tracks.map((t) => t.name)).toEqual(['A'])
    const before = steps()
    store().select(null)
    store().setControl(a.id, 'volume', 5)
    store().setEnabled(a.id, true)
    store().setMaster('reverb', MASTER_DEFAULTS.reverb)
    store().renameTrack(a.id, 'A')
    store().removeTrack('nope')
    expect(steps()).toBe(before)
  })

  it('opening a project or restoring a draft clears history and is not itself undoable', () => {
    add('A')
    add('B')
    store().load({ tracks: [], master: { volume: 50, reverb: 50 } }, { id: 'p1', name: 'P' })
    expect(steps()).toBe(0)
    expect(store().history.future).toHaveLength(0)
    store().undo()
    expect(store().master).toEqual({ volume: 50, reverb: 50 })
    add('C')
    store().undo()
    store().restore({ tracks: [], master: MASTER_DEFAULTS }, null)
    expect(store().history.past.length + store().history.future.length).toBe(0)
  })

  it('undo keeps the selection when the track still exists and moves it otherwise', () => {
    const a = add('A')
    const b = add('B')
    store().select(a.id)
    store().undo() // removes B, A stays selected
    expect(store().selectedId).toBe(a.id)
    store().redo()
    store().select(b.id)
    store().undo()
    expect(store().selectedId).toBe(a.id)
  })

  it('audio of a removed track stays available, so undoing the removal plays it again', () => {
    const t = addAudioToMixer({ name: 'Tone', sampleRate: 8000, channels: [new Float32Array([0.1, 0.2, 0.3])] })
    tick(1000)
    store().removeTrack(t.id)
    expect(store().tracks).toHaveLength(0)
    store().undo()
    expect(store().tracks[0]!.audioId).toBe(t.audioId)
    expect(getMixerAudio(t.audioId)?.channels[0]).toEqual(new Float32Array([0.1, 0.2, 0.3]))
  })

  it('unsaved changes: clean right after a save or open, dirty after an edit, clean again after undoing it', () => {
    expect(hasUnsavedChanges(store())).toBe(true)
    const t = add('A')
    store().markSaved(mixerSnapshot(), { id: 'p', name: 'P' })
    expect(hasUnsavedChanges(store())).toBe(false)
    tick(1000)
    store().setControl(t.id, 'volume', 1)
    expect(hasUnsavedChanges(store())).toBe(true)
    store().undo()
    expect(hasUnsavedChanges(store())).toBe(false)
    store().load(mixerSnapshot(), { id: 'p', name: 'P' })
    expect(hasUnsavedChanges(store())).toBe(false)
    store().restore(mixerSnapshot(), { id: 'p', name: 'P' })
    expect(hasUnsavedChanges(store())).toBe(true)
  })

  it('arrangement edits are undo steps too: tempo, clip moves and splits; a clip-gain drag or key burst is one step', () => {
    const t = add('Loop')
    const clipId = `${t.id}:whole`
    tick(1000)
    store().setTempo(90)
    tick(1000)
    store().editClips(t.id, (c, d) => moveClip(c, clipId, 1.5, d), { label: 'Move clip' })
    tick(1000)
    store().editClips(t.id, (c, d) => splitClip(c, clipId, 2.5, d, 'right'), { label: 'Split clip' })
    expect(store().tracks[0]!.clips!.map((c) => c.id)).toEqual([clipId, 'right'])
    expect(undoLabel(store().history)).toBe('Split clip')
    // A refused edit (split outside the clip) records nothing.
    const before = steps()
    store().editClips(t.id, (c, d) => splitClip(c, clipId, 99, d, 'x'), { label: 'Split clip' })
    expect(steps()).toBe(before)
    // One pointer drag of the clip gain slider, then a burst of keys: two steps.
    for (const g of [0.9, 0.8, 0.7])
      store().editClips(t.id, (c, d) => setClipGain(c, clipId, g, d), { label: 'Clip gain change', gesture: 'drag-1' })
    for (const g of [0.6, 0.5]) {
      tick(100)
      store().editClips(t.id, (c, d) => setClipGain(c, clipId, g, d), { label: 'Clip gain change', burst: `gain:${clipId}` })
    }
    expect(steps()).toBe(before + 2)
    store().undo()
    expect(store().tracks[0]!.clips![0]!.gain).toBeCloseTo(0.7, 12)
    store().undo()
    expect(store().tracks[0]!.clips![0]!.gain).toBe(1)
    store().undo()
    store().undo()
    expect(store().tracks[0]!.clips).toBeUndefined()
    expect(store().tempo).toBe(90)
    store().undo()
    expect(store().tempo).toBe(120)
    store().redo()
    expect(store().tempo).toBe(90)
  })
})
