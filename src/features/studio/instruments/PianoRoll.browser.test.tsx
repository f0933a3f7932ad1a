import '../../../styles/index.css'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { render, settle } from '../../../../tests/component/render.tsx'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useTimelineStore } from '../timeline/timeline-store.ts'
import { HIGHEST_KEY, type Note } from '../../../engine/instruments/note-track.ts'
import { BEAT_PX, PianoRoll, ROW_PX } from './PianoRoll.tsx'
import { computerKeyDown, noteOn } from './instrument-player.ts'

// Instrument tracks in the studio: the piano roll's gestures on the real mixer store (so the
// real undo history), with the instrument's sound left out (its audio is proven in the e2e journey
// and tests/browser/instrument-track.test.ts).
vi.mock('./instrument-player.ts', async (original) => ({
  ...(await original<object>()),
  playTrack: vi.fn(async () => {}),
  refreshInstrument: vi.fn(async () => {}),
  stopPlaying: vi.fn(),
  noteOn: vi.fn(),
  noteOff: vi.fn(),
  computerKeyDown: vi.fn(() => true),
  computerKeyUp: vi.fn(() => true),
}))

let trackId = ''
beforeEach(() => {
  vi.mocked(noteOn).mockClear()
  vi.mocked(computerKeyDown).mockClear()
  useMixerStore.getState().reset()
  useTimelineStore.setState({ snap: 'beat' })
  trackId = useMixerStore.getState().addInstrumentTrack({ program: 0 }).id
})

const notes = (): Note[] => useMixerStore.getState().tracks.find((t) => t.id === trackId)!.instrument!.notes
const grid = (el: HTMLElement) => el.querySelector<HTMLElement>('[data-testid="piano-roll-grid"]')!
const noteEls = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('[data-testid="piano-roll-note"]')]
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!

/** A pointer gesture on the grid at (beat, key) points, as a mouse would make it. */
async function gesture(el: HTMLElement, points: [number, number][], target?: HTMLElement) {
  const g = grid(el)
  const rect = g.getBoundingClientRect()
  const xy = ([beat, key]: [number, number]) => ({
    clientX: rect.left + beat * BEAT_PX,
    clientY: rect.top + (HIGHEST_KEY - key + 0.5) * ROW_PX,
  })
  const fire = (type: string, p: [number, number], on: HTMLElement) =>
    on.dispatchEvent(new PointerEvent(type, { bubbles: true, button: 0, buttons: 1, pointerId: 1, ...xy(p) }))
  await settle(() => fire('pointerdown', points[0]!, target ?? g))
  for (const p of points.slice(1)) await settle(() => fire('pointermove', p, g))
  await settle(() => fire('pointerup', points[points.length - 1]!, g))
}

const key = (el: HTMLElement, init: KeyboardEventInit) =>
  settle(() => grid(el).dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...init })))

describe('PianoRoll', () => {
  it('shows only for a selected instrument track', () => {
    useMixerStore.getState().select(null)
    expect(render(<PianoRoll />).querySelector('[data-testid="piano-roll"]')).toBeNull()
  })

  it('"Record notes" is below the grid, never between the tools and the grid where a click meant for the grid lands', async () => {
    const el = render(<PianoRoll />)
    await settle()
    const record = button(el, 'Record notes')
    const scroll = el.querySelector<HTMLElement>('[data-testid="piano-roll-scroll"]')!
    expect(record.getBoundingClientRect().top).toBeGreaterThanOrEqual(scroll.getBoundingClientRect().bottom)
    // Nothing but the grid's own frame sits in the 24 px just above it.
    const top = scroll.getBoundingClientRect().top
    const above = document.elementFromPoint(scroll.getBoundingClientRect().left + 40, top - 4)
    expect(above?.closest('button')?.textContent ?? '').not.toContain('Record')
  })

  it('a click draws a one-step note at the cell it falls in (sounding it); a drag draws it longer; each is one undo step', async () => {
    const el = render(<PianoRoll />)
    await gesture(el, [[2.6, 60]])
    expect(notes().map((n) => [n.key, n.start, n.length, n.velocity])).toEqual([[60, 2, 1, 100]])
    expect(noteOn).toHaveBeenCalledWith(60, 100)
    await gesture(el, [
      [4.2, 64],
      [5.5, 64],
      [6.7, 64],
    ])
    expect(notes().map((n) => [n.key, n.start, n.length])).toEqual([
      [60, 2, 1],
      [64, 4, 3],
    ])
    expect(noteEls(el)).toHaveLength(2)
    expect(noteEls(el)[1]!.getAttribute('aria-label')).toBe('E4 at bar 2 beat 1, 3 beats, velocity 100')
    await settle(() => useMixerStore.getState().undo())
    expect(notes()).toHaveLength(1)
    await settle(() => useMixerStore.getState().redo())
    expect(notes()).toHaveLength(2)
  })

  it('drags a note by whole grid steps and semitones, and its right end to resize it, as one step each', async () => {
    const el = render(<PianoRoll />)
    await gesture(el, [[1, 60]])
    const history = useMixerStore.getState().history.past.length
    await gesture(
      el,
      [
        [1.5, 60],
        [2.2, 61],
        [3.4, 63],
      ],
      noteEls(el)[0],
    )
    expect(notes().map((n) => [n.key, n.start, n.length])).toEqual([[63, 3, 1]])
    expect(useMixerStore.getState().history.past.length).toBe(history + 1)
    // Resize from the last pixels of its right end to beat 5.
    const right = noteEls(el)[0]!.getBoundingClientRect().right
    const rect = grid(el).getBoundingClientRect()
    await gesture(
      el,
      [
        [(right - 2 - rect.left) / BEAT_PX, 63],
        [5.1, 63],
      ],
      noteEls(el)[0],
    )
    expect(notes().map((n) => [n.key, n.start, n.length])).toEqual([[63, 3, 2]])
    await settle(() => useMixerStore.getState().undo())
    expect(notes().map((n) => n.length)).toEqual([1])
  })

  it('deletes with a double-click and with Delete on the selection; Ctrl+A selects all', async () => {
    const el = render(<PianoRoll />)
    await gesture(el, [[0, 60]])
    await gesture(el, [[1, 62]])
    await gesture(el, [[2, 64]])
    await settle(() => noteEls(el)[0]!.dispatchEvent(new MouseEvent('dblclick', { bubbles: true })))
    expect(notes().map((n) => n.key)).toEqual([62, 64])
    await key(el, { key: 'a', ctrlKey: true })
    expect(noteEls(el).every((n) => n.getAttribute('aria-selected') === 'true')).toBe(true)
    await key(el, { key: 'Delete' })
    expect(notes()).toEqual([])
    await settle(() => useMixerStore.getState().undo())
    expect(notes().map((n) => n.key)).toEqual([62, 64])
  })

  it('arrow keys move the selection by the grid and by semitones (Shift: an octave); other keys play the instrument', async () => {
    const el = render(<PianoRoll />)
    await gesture(el, [[1, 60]])
    await key(el, { key: 'ArrowRight' })
    await key(el, { key: 'ArrowUp', shiftKey: true })
    await key(el, { key: 'ArrowDown' })
    expect(notes().map((n) => [n.key, n.start])).toEqual([[71, 2]])
    await key(el, { key: 'a', code: 'KeyA' })
    expect(computerKeyDown).toHaveBeenCalledWith('KeyA')
  })

  it('sets the velocity of the selected notes, quantises to the grid, and changes the instrument', async () => {
    const el = render(<PianoRoll />)
    await settle(() =>
      useMixerStore.getState().editInstrument(
        trackId,
        (i) => ({
          ...i,
          notes: [
            { id: 'a', key: 60, start: 0.13, length: 0.8, velocity: 100 },
            { id: 'b', key: 62, start: 1.9, length: 1.2, velocity: 100 },
          ],
        }),
        { label: 'test' },
      ),
    )
    await gesture(el, [[0.3, 60]], noteEls(el)[0])
    const slider = el.querySelector<HTMLInputElement>('input[aria-label="Velocity of the selected notes"]')!
    await settle(() => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
      set.call(slider, '40')
      slider.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(notes().map((n) => n.velocity)).toEqual([40, 100])
    await key(el, { key: 'Escape' })
    useTimelineStore.setState({ snap: '1/8' })
    await settle(() => button(el, 'Quantise').click())
    expect(notes().map((n) => [n.start, n.length])).toEqual([
      [0, 1],
      [2, 1],
    ])
    const select = el.querySelector<HTMLSelectElement>('select[aria-label$=" instrument"]')!
    await settle(() => {
      select.value = 'p:40'
      select.dispatchEvent(new Event('change', { bubbles: true }))
    })
    expect(useMixerStore.getState().tracks[0]!.instrument!.program).toBe(40)
    await settle(() => useMixerStore.getState().undo())
    expect(useMixerStore.getState().tracks[0]!.instrument!.program).toBe(0)
  })
})
