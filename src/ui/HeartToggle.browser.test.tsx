import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import '../styles/index.css'
import { render } from '../../tests/component/render.tsx'
import { HeartToggle } from './HeartToggle.tsx'

// The one favourites heart of every song row, card and page: its pressed state, title and fill
// follow `liked`, so a screen reader and the eye read the same thing wherever it sits.

function Harness() {
  const [liked, setLiked] = useState(false)
  return <HeartToggle liked={liked} onToggle={() => setLiked((l) => !l)} label="Like Neon Drift" />
}

describe('HeartToggle', () => {
  it('is a toggle button named by its label: pressed, filled and titled while liked, back when pressed again', async () => {
    render(<Harness />)
    const heart = page.getByRole('button', { name: 'Like Neon Drift' })
    await expect.element(heart).toHaveAttribute('aria-pressed', 'false')
    await expect.element(heart).toHaveAttribute('title', 'Add to favourites')
    await userEvent.click(heart)
    await expect.element(heart).toHaveAttribute('aria-pressed', 'true')
    await expect.element(heart).toHaveAttribute('title', 'Remove from favourites')
    expect(heart.element().querySelector('svg')!.getAttribute('class')).toContain('fill-current')
    await userEvent.keyboard('{Enter}')
    await expect.element(heart).toHaveAttribute('aria-pressed', 'false')
    expect(heart.element().querySelector('svg')!.getAttribute('class') ?? '').not.toContain('fill-current')
  })
})
