import '../../../styles/index.css'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { render, settle } from '../../../../tests/component/render.tsx'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import type { Peer } from '../../../domain/studio/presence.ts'
import type { SharedSession } from '../../../domain/studio/shared-project.ts'
import { Timeline } from '../timeline/Timeline.tsx'
import { useTimelineStore } from '../timeline/timeline-store.ts'
import { MixerSlider } from '../mixer/MixerSlider.tsx'
import { PianoRoll } from '../instruments/PianoRoll.tsx'
import { trackClips } from '../../../engine/arrangement/clip.ts'

// What a creator sees of the others in a live session, from the session store's peers (as the
// awareness of a real session fills it), and what this creator's views share through the session.
vi.mock('../instruments/instrument-player.ts', async (original) => ({
  ...(await original<object>()),
  playTrack: vi.fn(async () => {}),
  refreshInstrument: vi.fn(async () => {}),
  stopPlaying: vi.fn(),
  noteOn: vi.fn(),
  noteOff: vi.fn(),
}))

const MIA = 'hsl(200 80% 65%)'
const LEO = 'hsl(20 80% 65%)'
const peer = (over: Partial<Peer>): Peer => ({
  clientId: 1,
  heardAt: performance.now(),
  name: 'mia',
  colour: MIA,
  selectedTrackId: null,
  clip: null,
  notes: [],
  playhead: null,
  touching: null,
  ...over,
})

const shared: Parameters<SharedSession['share']>[0][] = []
const session = {
  project: { id: 'p-1', name: 'Night Drive' },
  part: 'editor',
  awareness: null as never,
  ready: Promise.resolve(),
  together: null as never,
  share: (change) => void shared.push(change),
  leave: async () => {},
} satisfies SharedSession
const setPeers = (peers: Peer[]) => settle(() => useLiveSessionStore.setState({ peers }))

beforeEach(() => {
  shared.length = 0
  useMixerStore.getState().reset()
  useTimelineStore.setState({ zoom: 50, selected: null, preview: null })
  useLiveSessionStore.setState({ session, status: 'live', peers: [], audio: {} })
})

const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
const x = (el: HTMLElement) => new DOMMatrix(getComputedStyle(el).transform).m41

describe('presence in the timeline', () => {
  it('draws each peer’s playhead in their colour where it is, a playing one moving on', async () => {
    useMixerStore.getState().addTrack({ name: 'Drums', type: 'main', audioId: 'none', duration: 8, id: 't-1' })
    const el = render(<Timeline onSeek={() => {}} />)
    await setPeers([
      peer({ clientId: 1, playhead: { seconds: 2, playing: false } }),
      peer({ clientId: 2, name: 'leo', colour: LEO, playhead: { seconds: 1, playing: true }, heardAt: performance.now() - 500 }),
    ])
    await frame()
    const [mia, leo] = [...el.querySelectorAll<HTMLElement>('[data-testid="peer-playhead"]')]
    expect(mia!.dataset.peer).toBe('mia')
    expect(mia!.style.background).toBe('rgb(94, 190, 237)')
    expect(x(mia!)).toBe(100) // 2 s at 50 px/s
    // Heard half a second ago at 1 s and playing: at least 1.5 s now.
    expect(x(leo!)).toBeGreaterThanOrEqual(75)
    const before = x(leo!)
    await new Promise((r) => setTimeout(r, 200))
    expect(x(leo!)).toBeGreaterThan(before + 5)
    expect(x(mia!)).toBe(100)
    await setPeers([])
    expect(el.querySelectorAll('[data-testid="peer-playhead"]')).toHaveLength(0)
  })

  it('marks the lane a peer is on and outlines the clip they selected, in their colour', async () => {
    const drums = useMixerStore.getState().addTrack({ name: 'Drums', type: 'main', audioId: 'none', duration: 4, id: 't-1' })
    useMixerStore.getState().addTrack({ name: 'Bass', type: 'main', audioId: 'none', duration: 4, id: 't-2' })
    const clipId = trackClips(useMixerStore.getState().tracks[0]!)[0]!.id
    const el = render(<Timeline onSeek={() => {}} />)
    await setPeers([peer({ selectedTrackId: drums.id, clip: { trackId: drums.id, clipId } })])
    const [drumsLane, bassLane] = [...el.querySelectorAll<HTMLElement>('[data-testid="timeline-lane"]')]
    expect(drumsLane!.querySelector('[data-testid="peer-on-lane"]')?.textContent).toBe('mia')
    expect(drumsLane!.style.boxShadow).toContain('rgb(94, 190, 237)')
    expect(bassLane!.querySelector('[data-testid="peer-on-lane"]')).toBeNull()
    const clip = drumsLane!.querySelector<HTMLElement>('[data-testid="clip"]')!
    expect(clip.dataset.peer).toBe('mia')
    expect(clip.getAttribute('aria-label')).toMatch(/, selected by mia$/)
    expect(clip.style.outline).toContain('rgb(94, 190, 237)')
    expect(bassLane!.querySelector<HTMLElement>('[data-testid="clip"]')!.dataset.peer).toBeUndefined()
  })

  it('says on a lane when its audio is still uploading or being fetched, and nothing once it is here', async () => {
    useMixerStore.getState().addTrack({ name: 'Drums', type: 'main', audioId: 'rec-1', duration: 4, id: 't-1' })
    const el = render(<Timeline onSeek={() => {}} />)
    const said = () => el.querySelector('[data-testid="lane-audio"]')?.textContent ?? null
    await settle(() => useLiveSessionStore.setState({ audio: { 'rec-1': 'waiting' } }))
    expect(said()).toBe('Audio still uploading…')
    await settle(() => useLiveSessionStore.setState({ audio: { 'rec-1': 'fetching' } }))
    expect(said()).toBe('Fetching audio…')
    await settle(() => useLiveSessionStore.setState({ audio: { 'rec-1': 'here' } }))
    expect(said()).toBeNull()
  })

  it('shares the clip this creator selects', async () => {
    render(<Timeline onSeek={() => {}} />)
    expect(shared).toEqual([{ clip: null }])
    await settle(() => useTimelineStore.getState().select({ trackId: 't-1', clipId: 'c-1' }))
    expect(shared.at(-1)).toEqual({ clip: { trackId: 't-1', clipId: 'c-1' } })
  })
})

describe('a control another creator moves', () => {
  const slider = (onChange = () => {}) =>
    render(
      <MixerSlider
        label="Volume"
        ariaLabel="Drums Volume"
        value={40}
        min={0}
        max={100}
        onChange={onChange}
        control={{ trackId: 't-1', control: 'volume' }}
      />,
    )

  it('shows their name and colour while they drag it, and nothing once they let go', async () => {
    const el = slider()
    const thumb = el.querySelector<HTMLElement>('[role="slider"]')!
    await setPeers([
      peer({ touching: { trackId: 't-1', control: 'pan' } }),
      peer({ clientId: 2, name: 'leo', touching: { trackId: null, control: 'volume' } }),
    ])
    expect(el.querySelector('[data-touched-by]')).toBeNull()
    await setPeers([peer({ touching: { trackId: 't-1', control: 'volume' } })])
    expect(el.querySelector<HTMLElement>('[data-touched-by]')!.dataset.touchedBy).toBe('mia')
    expect(el.querySelector('[data-slider-part="label"]')!.textContent).toBe('mia')
    expect(thumb.style.borderColor).toBe('rgb(94, 190, 237)')
    expect(thumb.getAttribute('aria-valuetext')).toBe('40, mia is moving it')
    await setPeers([peer({ touching: null })])
    expect(el.querySelector('[data-touched-by]')).toBeNull()
    expect(thumb.style.borderColor).toBe('')
    expect(el.querySelector('[data-slider-part="label"]')!.textContent).toBe('Volume')
  })

  it('tells the others when this creator takes hold of it and lets go', async () => {
    const el = slider()
    const track = el.querySelector<HTMLElement>('[data-slider-part="track"]')!
    const r = track.getBoundingClientRect()
    const at = { bubbles: true, button: 0, buttons: 1, pointerId: 1, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }
    await settle(() => track.dispatchEvent(new PointerEvent('pointerdown', at)))
    expect(shared.at(-1)).toEqual({ touching: { trackId: 't-1', control: 'volume' } })
    await settle(() => window.dispatchEvent(new PointerEvent('pointerup', at)))
    expect(shared.at(-1)).toEqual({ touching: null })
  })
})

describe('presence in the piano roll', () => {
  it('names who else is on the track and outlines the notes they selected; shares this creator’s selection', async () => {
    const notes = [
      { id: 'n-1', key: 60, start: 0, length: 1, velocity: 100 },
      { id: 'n-2', key: 62, start: 1, length: 1, velocity: 100 },
    ]
    const keys = useMixerStore.getState().addInstrumentTrack({ program: 0, notes, name: 'Keys' })
    const el = render(<PianoRoll />)
    await setPeers([
      peer({ selectedTrackId: keys.id, notes: ['n-2'] }),
      peer({ clientId: 2, name: 'leo', colour: LEO, selectedTrackId: 'other', notes: ['n-1'] }),
    ])
    expect([...el.querySelectorAll('[data-testid="peer-in-roll"]')].map((t) => t.textContent)).toEqual(['mia'])
    const [first, second] = [...el.querySelectorAll<HTMLElement>('[data-testid="piano-roll-note"]')]
    expect(first!.dataset.peer).toBeUndefined()
    expect(second!.dataset.peer).toBe('mia')
    expect(second!.style.outline).toContain('rgb(94, 190, 237)')
    expect(second!.getAttribute('aria-label')).toMatch(/selected by mia$/)
    expect(shared.at(-1)).toEqual({ notes: [] })
    const grid = el.querySelector<HTMLElement>('[data-testid="piano-roll-grid"]')!
    await settle(() => grid.focus())
    await settle(() => grid.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, key: 'a', ctrlKey: true })))
    expect(shared.at(-1)).toEqual({ notes: ['n-1', 'n-2'] })
  })
})
