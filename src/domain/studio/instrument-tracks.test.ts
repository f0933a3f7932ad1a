import { beforeEach, describe, expect, it } from 'vitest'
import { sanitizeState, withInstrument, createTrack } from '../../engine/mixer-model.ts'
import { INSTRUMENT_TAIL_SECONDS, instrumentAudioId, type Note } from '../../engine/instruments/note-track.ts'
import { normaliseClip } from '../../engine/arrangement/clip.ts'
import { useMixerStore } from './mixer-store.ts'

// Instrument tracks in the mixer's model and store. Their audio is the render of their
// notes, so the audio id and length follow every edit, undo and tempo change.

const n = (id: string, key: number, start: number, length = 1): Note => ({ id, key, start, length, velocity: 100 })
const store = () => useMixerStore.getState()
const track = () => store().tracks[0]!

beforeEach(() => store().reset())

describe('instrument tracks in the mixer store', () => {
  it('adds one named after its instrument, its audio named by its notes at the project tempo, one bar plus the tail long', () => {
    store().addInstrumentTrack({ program: 42 })
    expect(track()).toMatchObject({ name: 'Cello', type: 'instrument', duration: 2 + INSTRUMENT_TAIL_SECONDS })
    expect(track().audioId).toBe(instrumentAudioId({ program: 42, drums: false, notes: [] }, 120))
    expect(store().history.past).toHaveLength(1)
  })

  it('each note edit is one undo step that renames the audio and follows the length; an edit that changes nothing is none', () => {
    const { id } = store().addInstrumentTrack({ program: 0 })
    const before = track().audioId
    store().editInstrument(id, (i) => ({ ...i, notes: [n('a', 60, 6, 1)] }), { label: 'Draw note' })
    expect(track().audioId).not.toBe(before)
    expect(track().duration).toBe(4 + INSTRUMENT_TAIL_SECONDS)
    const steps = store().history.past.length
    store().editInstrument(id, (i) => ({ ...i, notes: [...i.notes] }), { label: 'Nothing' })
    expect(store().history.past.length).toBe(steps)
    store().undo()
    expect(track().audioId).toBe(before)
    expect(track().instrument!.notes).toEqual([])
  })

  it('a tempo change re-times every instrument track (notes are in beats), as one undo step with it', () => {
    const { id } = store().addInstrumentTrack({ program: 0, notes: [n('a', 60, 0, 4)] })
    store().setTempo(60)
    expect(track().duration).toBe(4 + INSTRUMENT_TAIL_SECONDS)
    expect(track().audioId).toBe(instrumentAudioId(track().instrument!, 60))
    store().undo()
    expect(store().tempo).toBe(120)
    expect(track().duration).toBe(2 + INSTRUMENT_TAIL_SECONDS)
    expect(store().tracks.find((t) => t.id === id)).toBeDefined()
  })

  it('imports several tracks as one undo step, taking the given tempo', () => {
    store().addInstrumentTracks(
      [
        { name: 'Keys', program: 4, drums: false, notes: [n('a', 60, 0)] },
        { name: 'Kit', program: 0, drums: true, notes: [n('b', 36, 0)] },
      ],
      90,
    )
    expect(store().tracks.map((t) => t.name)).toEqual(['Keys', 'Kit'])
    expect(store().tempo).toBe(90)
    store().undo()
    expect(store().tracks).toEqual([])
    expect(store().tempo).toBe(120)
  })
})

describe('withInstrument and sanitizeState', () => {
  it('a clip that reached the end of the old render reaches the end of the new one; a trimmed one stays', () => {
    const base = withInstrument(
      createTrack({ id: 't', name: 'P', type: 'instrument', audioId: '', duration: 0 }),
      { program: 0, drums: false, notes: [] },
      120,
    )
    const d = base.duration
    base.clips = [
      normaliseClip({ id: 'whole', start: 1, sourceStart: 0, sourceEnd: d, length: d }, d),
      normaliseClip({ id: 'trimmed', start: 10, sourceStart: 0, sourceEnd: 1, length: 1 }, d),
    ]
    const grown = withInstrument(base, { program: 0, drums: false, notes: [n('a', 60, 6)] }, 120)
    expect(grown.clips!.map((c) => [c.sourceEnd, c.length])).toEqual([
      [grown.duration, grown.duration],
      [1, 1],
    ])
  })

  it('keeps a stored instrument track, re-deriving its audio id and length from its notes and the tempo', () => {
    const state = sanitizeState({
      tempo: 100,
      master: { volume: 80, reverb: 30 },
      tracks: [
        { id: 't', name: 'Keys', type: 'instrument', audioId: 'stale', duration: 99, instrument: { program: 4, notes: [n('a', 60, 0)] } },
      ],
    })
    const t = state.tracks[0]!
    expect(t.type).toBe('instrument')
    expect(t.audioId).toBe(instrumentAudioId({ program: 4, drums: false, notes: [n('a', 60, 0)] }, 100))
    expect(t.duration).toBeCloseTo(2.4 + INSTRUMENT_TAIL_SECONDS, 9)
  })
})
