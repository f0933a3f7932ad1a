import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { useState } from 'react'
import '../styles/index.css'
import { render, settle } from '../../tests/component/render.tsx'
import { Switch } from './Switch.tsx'

// The knob was drawn outside its track and "off" looked like "on". Measured on
// the styled switch: the knob stays inside the track in both states, sits left when off and right
// when on, and the track's colour differs between the two.

function Controlled({ initial }: { initial: boolean }) {
  const [on, setOn] = useState(initial)
  return <Switch checked={on} onChange={setOn} label="Glow" />
}

function geometry(el: HTMLElement) {
  const track = el.querySelector<HTMLButtonElement>('[role="switch"]')!
  const knob = track.querySelector<HTMLElement>('[data-knob]')!
  const t = track.getBoundingClientRect()
  const k = knob.getBoundingClientRect()
  return {
    inside: k.left >= t.left && k.right <= t.right && k.top >= t.top && k.bottom <= t.bottom,
    side: k.left + k.width / 2 < t.left + t.width / 2 ? 'left' : 'right',
    track: getComputedStyle(track).backgroundColor,
  }
}

describe('Switch', () => {
  it('draws the knob inside the track, left and dark when off, right and coloured when on', async () => {
    const el = render(<Controlled initial={false} />)
    const off = geometry(el)
    expect(off).toMatchObject({ inside: true, side: 'left' })
    await settle(() => userEvent.click(el.querySelector('[role="switch"]')!))
    expect(el.querySelector('[role="switch"]')!.getAttribute('aria-checked')).toBe('true')
    await expect.poll(() => geometry(el).side).toBe('right')
    await expect.poll(() => geometry(el).inside).toBe(true)
    expect(geometry(el).track).not.toBe(off.track)
  })

  it('is named by its label and keeps its state when disabled', async () => {
    const el = render(<Switch checked={false} onChange={() => expect.unreachable()} label="Track 1 enabled" disabled />)
    const button = el.querySelector<HTMLButtonElement>('[role="switch"]')!
    expect(button.getAttribute('aria-label')).toBe('Track 1 enabled')
    expect(button.disabled).toBe(true)
  })
})
