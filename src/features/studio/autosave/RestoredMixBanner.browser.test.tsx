import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../../tests/component/render.tsx'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useDraftNotice } from './draft-notice.ts'
import { RestoredMixBanner } from './RestoredMixBanner.tsx'

// The restored-mix notice is the studio's, once, with Keep and Discard.

const reset = vi.fn()
beforeEach(() => {
  reset.mockClear()
  useMixerStore.setState({ reset })
  useDraftNotice.setState({ restored: { tracks: 2, project: 'Night Drive', missing: ['Vocals'] }, acknowledged: false })
})
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === name)!

describe('RestoredMixBanner', () => {
  it('says what came back; Keep hides it for good', async () => {
    const el = render(<RestoredMixBanner />)
    expect(el.querySelector('[role="status"]')?.textContent).toBe(
      'Restored your unsaved mix: 2 tracks of Night Drive; audio missing for Vocals.KeepDiscard',
    )
    await settle(() => userEvent.click(button(el, 'Keep')))
    expect(el.querySelector('[role="status"]')).toBeNull()
    expect(useDraftNotice.getState()).toMatchObject({ restored: null, acknowledged: true })
    expect(reset).not.toHaveBeenCalled()
  })

  it('Discard empties the mixer', async () => {
    const el = render(<RestoredMixBanner />)
    await settle(() => userEvent.click(button(el, 'Discard')))
    expect(reset).toHaveBeenCalledTimes(1)
    expect(el.querySelector('[role="status"]')).toBeNull()
  })

  it('leaving the studio without choosing counts as seen; StrictMode’s remount does not', async () => {
    const host = document.body.appendChild(document.createElement('div'))
    const root = createRoot(host)
    act(() => root.render(<RestoredMixBanner />))
    act(() => root.render(<></>))
    act(() => root.render(<RestoredMixBanner />))
    await new Promise((r) => setTimeout(r, 10))
    expect(useDraftNotice.getState().restored).not.toBeNull()
    act(() => root.unmount())
    await vi.waitFor(() => expect(useDraftNotice.getState()).toMatchObject({ restored: null, acknowledged: true }))
    host.remove()
  })
})
