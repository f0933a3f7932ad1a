import { describe, expect, it } from 'vitest'
import '../styles/index.css'
import { render } from '../../tests/component/render.tsx'
import { PageFallback } from './PageFallback.tsx'

// The loading fallback's words pulsed with the whole text: mid-pulse they fell to 2.6:1 against the
// page (a route's axe scan caught it while the route's code was still arriving). Only a dot pulses now.

describe('PageFallback', () => {
  it('keeps its words at full opacity and unanimated; the pulsing dot is hidden from assistive technology', () => {
    const el = render(<PageFallback />)
    const status = el.querySelector('[role="status"]')!
    expect(status.textContent).toBe('LOADING…')
    const words = [...status.querySelectorAll('span')].find((s) => s.textContent === 'LOADING…')!
    const style = getComputedStyle(words)
    expect(style.animationName).toBe('none')
    expect(style.opacity).toBe('1')
    const dot = status.querySelector('[aria-hidden="true"]')!
    expect(getComputedStyle(dot).animationName).not.toBe('none')
  })
})
