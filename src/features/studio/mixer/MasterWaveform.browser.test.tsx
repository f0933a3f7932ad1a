import { afterEach, describe, expect, it, vi } from 'vitest'
import { render } from '../../../../tests/component/render.tsx'
import { MasterWaveform } from './MasterWaveform.tsx'

// A studio left open and paused must cost nothing per frame: the waveform draws the flat line of
// silence once, not sixty times a second (a battery drain on laptops, a CPU hog under test).

const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)))
    step(n)
  })

describe('MasterWaveform', () => {
  afterEach(() => vi.restoreAllMocks())

  it('draws silence once and then leaves the canvas alone while nothing plays', async () => {
    const clears = vi.spyOn(CanvasRenderingContext2D.prototype, 'clearRect')
    const host = render(<MasterWaveform />)
    await frames(30)
    expect(clears).toHaveBeenCalledTimes(1)
    expect(host.querySelector('canvas')?.dataset.peak).toBe('0.0000')
  })
})
