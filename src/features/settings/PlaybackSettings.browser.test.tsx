import { beforeEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../tests/component/render.tsx'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { useNormalisationStore } from '../../domain/playback/normalisation-store.ts'
import { deviceOutputLatency, setUnreportedOutputLatency } from '../../engine/output-latency.ts'
import { startOutputDelay, useOutputDelayStore } from '../../domain/playback/output-delay-store.ts'
import { PlaybackSettings } from './PlaybackSettings.tsx'

// Settings → Playback. The crossfade slider: labelled, reads out its value, moves in half seconds
// from 0 (gapless) to 12 s, and sets the player store's setting (which the player saves and hands to
// the deck). The loudness normalisation select shows the four settings, starts at the stored one and
// keeps a change on this device. The speaker delay moves in 10 ms steps, is kept on this device and
// reaches the engine, which uses it only where the browser reports no output latency.

beforeEach(() => usePlayerStore.setState({ crossfadeSeconds: 0 }))

const slider = (el: HTMLElement, name = 'Crossfade between songs') => {
  const label = [...el.querySelectorAll('label')].find((l) => l.textContent === name)!
  return el.querySelector<HTMLInputElement>(`#${CSS.escape(label.htmlFor)}`)!
}
const readout = (el: HTMLElement) => el.querySelector('[data-testid="crossfade-value"]')!.textContent

describe('PlaybackSettings', () => {
  it('starts at Off (gapless) and moves the store setting in half-second steps', async () => {
    const el = render(<PlaybackSettings />)
    const input = slider(el)
    expect(input.type).toBe('range')
    expect([input.min, input.max, input.step]).toEqual(['0', '12', '0.5'])
    expect(readout(el)).toBe('Off (gapless)')
    input.focus()
    await settle(() => userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}'))
    expect(usePlayerStore.getState().crossfadeSeconds).toBe(1.5)
    expect(readout(el)).toBe('1.5 s')
    expect(input.getAttribute('aria-valuetext')).toBe('1.5 s')
    await settle(() => userEvent.keyboard('{End}'))
    expect(usePlayerStore.getState().crossfadeSeconds).toBe(12)
    expect(readout(el)).toBe('12 s')
    await settle(() => userEvent.keyboard('{Home}'))
    expect(usePlayerStore.getState().crossfadeSeconds).toBe(0)
  })

  it('shows a setting changed elsewhere (restored after a reload)', async () => {
    const el = render(<PlaybackSettings />)
    await settle(() => usePlayerStore.getState().setCrossfade(6))
    expect(slider(el).value).toBe('6')
    expect(readout(el)).toBe('6 s')
  })

  it('offers Loud, Normal, Quiet and Off under its label, and keeps the choice in localStorage', async () => {
    localStorage.removeItem('cube.playback.normalisation.v1')
    useNormalisationStore.setState({ setting: 'normal' })
    const el = render(<PlaybackSettings />)
    const label = [...el.querySelectorAll('label')].find((l) => l.textContent === 'Loudness normalisation')!
    const select = el.querySelector<HTMLSelectElement>(`#${CSS.escape(label.htmlFor)}`)!
    expect([...select.options].map((o) => o.textContent)).toEqual(['Loud (−11 LUFS)', 'Normal (−14 LUFS)', 'Quiet (−19 LUFS)', 'Off'])
    expect(select.value).toBe('normal')
    await settle(() => userEvent.selectOptions(select, 'quiet'))
    expect(useNormalisationStore.getState().setting).toBe('quiet')
    expect(localStorage.getItem('cube.playback.normalisation.v1')).toBe('quiet')
    expect(select.value).toBe('quiet')
  })

  it('sets the speaker delay in 10 ms steps, keeps it on this device, hands it to the engine for browsers reporting none', async () => {
    localStorage.removeItem('cube.playback.output-delay-ms.v1')
    useOutputDelayStore.setState({ delayMs: 0 })
    const stop = startOutputDelay()
    const safari = { baseLatency: 0, _nativeAudioContext: {} } as unknown as Parameters<typeof deviceOutputLatency>[0]
    const el = render(<PlaybackSettings />)
    const input = slider(el, 'Speaker delay')
    const value = () => el.querySelector('[data-testid="output-delay-value"]')!.textContent
    expect([input.min, input.max, input.step]).toEqual(['0', '500', '10'])
    expect(value()).toBe('None')
    input.focus()
    await settle(() => userEvent.keyboard('{ArrowRight}{ArrowRight}'))
    expect(value()).toBe('20 ms')
    expect(input.getAttribute('aria-valuetext')).toBe('20 ms')
    await settle(() => userEvent.keyboard('{End}'))
    expect(useOutputDelayStore.getState().delayMs).toBe(500)
    expect(localStorage.getItem('cube.playback.output-delay-ms.v1')).toBe('500')
    expect(deviceOutputLatency(safari)).toBeCloseTo(0.5, 9)
    stop()
    setUnreportedOutputLatency(0)
  })
})
