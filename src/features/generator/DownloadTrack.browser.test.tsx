import { beforeEach, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { MemoryRouter } from 'react-router-dom'
import { render, settle } from '../../../tests/component/render.tsx'
import { downloadFile } from '../../lib/download-file.ts'
import { encodeWav } from '../../engine/workers.ts'
import type { GeneratedTrack } from './generated-track.ts'
import { DownloadTrack } from './DownloadTrack.tsx'
import { GeneratedTrackActions } from './GeneratedTrackPanel.tsx'

// A generated track can be downloaded: the WAV as rendered, and a compressed Opus/WebM file that
// the browser decodes back to the same length (encoded on the device by the publishing encoder).

vi.mock('../../lib/download-file.ts', () => ({ downloadFile: vi.fn() }))

async function aTrack(): Promise<GeneratedTrack> {
  const rate = 44_100
  const seconds = 2
  const left = new Float32Array(rate * seconds).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / rate))
  const right = left.slice()
  const wav = await encodeWav([left, right], rate, 'pcm16')
  return {
    id: 'gen-test',
    title: 'Neon Rain / Night Drive',
    summary: '120 BPM · A minor',
    heard: null,
    genre: 'electronic',
    duration: seconds,
    sampleRate: rate,
    channels: [left, right],
    wav,
    recipe: { description: 'night drive', mood: 'chill', genre: 'electronic' },
  } as GeneratedTrack
}

const button = (el: HTMLElement, text: string) => [...el.querySelectorAll('button')].find((b) => b.textContent?.includes(text))!

beforeEach(() => vi.mocked(downloadFile).mockClear())

it('Download WAV hands over the rendered WAV under the title', async () => {
  const track = await aTrack()
  const el = render(<DownloadTrack track={track} />)
  await settle(() => userEvent.click(button(el, 'Download WAV')))
  expect(downloadFile).toHaveBeenCalledWith(track.wav, 'Neon Rain Night Drive.wav')
})

it('Download Opus makes a compressed WebM, much smaller, that decodes to the same length', async () => {
  const track = await aTrack()
  const el = render(<DownloadTrack track={track} />)
  await settle(async () => {
    await userEvent.click(button(el, 'Download Opus'))
    await vi.waitFor(() => expect(downloadFile).toHaveBeenCalled(), { timeout: 20_000 })
  })
  const [blob, name] = vi.mocked(downloadFile).mock.calls[0]!
  expect(name).toBe('Neon Rain Night Drive.webm')
  expect(blob.type).toBe('audio/webm')
  expect(blob.size).toBeLessThan(track.wav.size / 4)
  const decoded = await new OfflineAudioContext(2, 1, 48_000).decodeAudioData(await blob.arrayBuffer())
  expect(decoded.duration).toBeGreaterThan(1.9)
  expect(decoded.duration).toBeLessThan(2.1)
})

it("a finished track's actions offer both downloads, in the generator and on the landing page", async () => {
  const track = await aTrack()
  for (const openInStudio of [false, true]) {
    vi.mocked(downloadFile).mockClear()
    const el = render(
      <MemoryRouter>
        <GeneratedTrackActions track={track} openInStudio={openInStudio} />
      </MemoryRouter>,
    )
    expect(button(el, 'Download Opus'), `openInStudio ${openInStudio}`).toBeDefined()
    await settle(() => userEvent.click(button(el, 'Download WAV')))
    expect(downloadFile).toHaveBeenCalledWith(track.wav, 'Neon Rain Night Drive.wav')
  }
})
