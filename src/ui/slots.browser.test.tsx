import { describe, expect, it } from 'vitest'
import { render } from '../../tests/component/render.tsx'
import { Slot, SlotsProvider } from './slots.tsx'
import type { Song } from '../lib/catalogue/song.ts'

// A screen asks for another feature's widget by name; the app supplies it. Without the app (as in
// a screen's own component test) the place stays empty instead of failing.

const song = { id: 's1', title: 'Neon Rain' } as Song

describe('Slot', () => {
  it('renders the widget the app supplies, with the props the screen gives', () => {
    const el = render(
      <SlotsProvider slots={{ AddToPlaylistMenu: ({ song }) => <button type="button">Add {song.title}</button> }}>
        <section>
          Track <Slot name="AddToPlaylistMenu" song={song} />
        </section>
      </SlotsProvider>,
    )
    expect(el.querySelector('button')?.textContent).toBe('Add Neon Rain')
  })

  it('renders nothing where no widget is supplied', () => {
    const el = render(
      <section>
        Track <Slot name="PublishButton" song={song} />
      </section>,
    )
    expect(el.querySelector('section')?.innerHTML).toBe('Track ')
  })
})
