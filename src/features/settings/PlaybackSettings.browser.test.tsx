import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../tests/component/render.tsx'
import { useNormalisationStore } from '../../domain/playback/normalisation-store.ts'
import { PlaybackSettings } from './PlaybackSettings.tsx'

// Settings → Playback: the labelled loudness normalisation select shows the four settings, starts
// at the stored one and keeps a change on this device.

describe('PlaybackSettings', () => {
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
})
