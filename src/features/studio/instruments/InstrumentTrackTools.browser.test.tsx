import '../../../styles/index.css'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { render, settle } from '../../../../tests/component/render.tsx'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { readMidiFile, writeMidiFile } from '../../../engine/instruments/midi-file.ts'
import { normaliseClip } from '../../../engine/arrangement/clip.ts'
import { downloadFile } from '../../../lib/download-file.ts'
import { subscribeNotices, type Notice } from '../../../lib/notify.ts'
import { InstrumentTrackTools } from './InstrumentTrackTools.tsx'

// Add Instrument Track, Import MIDI (each channel an instrument track, the file's tempo
// in an empty studio) and Export MIDI (the notes as the timeline plays them), through the real
// MIDI parser and builder; only the browser's download is a double.
vi.mock('../../../lib/download-file.ts', () => ({ downloadFile: vi.fn() }))

const notices: Notice[] = []
beforeEach(() => {
  vi.mocked(downloadFile).mockClear()
  notices.length = 0
  useMixerStore.getState().reset()
})
subscribeNotices((n) => notices.push(n))

const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!
async function upload(el: HTMLElement, file: File) {
  const input = el.querySelector<HTMLInputElement>('[data-testid="midi-file-input"]')!
  const list = new DataTransfer()
  list.items.add(file)
  input.files = list.files
  await settle(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }))
    await vi.waitFor(() => expect(notices.length).toBeGreaterThan(0))
  })
}

describe('InstrumentTrackTools', () => {
  it('adds an instrument track with the chosen GM instrument, selected for the piano roll', async () => {
    const el = render(<InstrumentTrackTools />)
    const select = el.querySelector<HTMLSelectElement>('select[aria-label="Instrument for a new track"]')!
    await settle(() => {
      select.value = 'p:65'
      select.dispatchEvent(new Event('change', { bubbles: true }))
    })
    await settle(() => button(el, 'Add Instrument Track').click())
    const [track] = useMixerStore.getState().tracks
    expect(track).toMatchObject({ name: 'Alto Sax', type: 'instrument', instrument: { program: 65, drums: false, notes: [] } })
    expect(useMixerStore.getState().selectedId).toBe(track!.id)
    expect(button(el, 'Export MIDI').disabled).toBe(false)
  })

  it('imports a .mid file as instrument tracks at its tempo, as one undo step', async () => {
    const bytes = await writeMidiFile(
      [
        { name: 'Keys', program: 4, drums: false, notes: [{ key: 60, start: 0, length: 2, velocity: 90 }] },
        { name: 'Kit', program: 0, drums: true, notes: [{ key: 36, start: 1, length: 0.5, velocity: 110 }] },
      ],
      96,
      'Song',
    )
    const el = render(<InstrumentTrackTools />)
    await upload(el, new File([bytes], 'song.mid', { type: 'audio/midi' }))
    expect(notices[0]).toMatchObject({ kind: 'success', title: 'MIDI imported', description: '2 instrument tracks, 2 notes' })
    const s = useMixerStore.getState()
    expect(s.tempo).toBe(96)
    expect(s.tracks.map((t) => [t.name, t.instrument?.program, t.instrument?.drums])).toEqual([
      ['Keys', 4, false],
      ['Kit', 0, true],
    ])
    expect(s.tracks[0]!.instrument!.notes.map((n) => [n.key, n.start, n.length, n.velocity])).toEqual([[60, 0, 2, 90]])
    expect(s.tracks[1]!.instrument!.notes[0]!.start).toBeCloseTo(1, 3)
    await settle(() => useMixerStore.getState().undo())
    expect(useMixerStore.getState().tracks).toEqual([])
  })

  it('refuses a file that is not MIDI, in words, and changes nothing', async () => {
    const el = render(<InstrumentTrackTools />)
    await upload(el, new File(['RIFF not midi'], 'voice.mid'))
    expect(notices[0]).toMatchObject({
      kind: 'error',
      title: 'MIDI not imported',
      description: '"voice.mid" is not a MIDI file that can be read.',
    })
    expect(useMixerStore.getState().tracks).toEqual([])
  })

  it('Export MIDI of a track with no notes says there are none, and downloads nothing', async () => {
    useMixerStore.getState().addInstrumentTrack({ program: 0, notes: [] })
    const el = render(<InstrumentTrackTools />)
    await settle(async () => {
      button(el, 'Export MIDI').click()
      await vi.waitFor(() => expect(notices.length).toBeGreaterThan(0))
    })
    expect(notices.at(-1)).toMatchObject({
      kind: 'error',
      title: 'MIDI not exported',
      description: 'There are no notes to export yet: draw some in the piano roll, record them, or import a MIDI file.',
    })
    expect(downloadFile).not.toHaveBeenCalled()
  })

  it('exports the notes as the timeline plays them (a moved clip), skipping disabled tracks', async () => {
    const s = useMixerStore.getState()
    s.setTempo(120)
    const piano = s.addInstrumentTrack({ program: 0, notes: [{ id: 'a', key: 60, start: 0, length: 1, velocity: 100 }] })
    s.editClips(piano.id, (_, d) => [normaliseClip({ id: 'c', start: 2, sourceStart: 0, sourceEnd: d, length: d }, d)])
    const muted = s.addInstrumentTrack({ program: 40, notes: [{ id: 'b', key: 70, start: 0, length: 1, velocity: 100 }] })
    s.setEnabled(muted.id, false)
    const el = render(<InstrumentTrackTools />)
    await settle(async () => {
      button(el, 'Export MIDI').click()
      await vi.waitFor(() => expect(downloadFile).toHaveBeenCalled())
    })
    const [blob, name] = vi.mocked(downloadFile).mock.calls[0]!
    expect(name).toBe('CUBE project.mid')
    const back = await readMidiFile(await blob.arrayBuffer())
    expect(back.parts).toHaveLength(1)
    expect(back.parts[0]).toMatchObject({ program: 0, drums: false })
    expect(back.parts[0]!.notes.map((n) => [n.key, n.seconds, n.lengthSeconds])).toEqual([[60, 2, 0.5]])
  })
})
