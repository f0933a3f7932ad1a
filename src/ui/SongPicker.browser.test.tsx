import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { useState } from 'react'
import { render, settle } from '../../tests/component/render.tsx'
import { CATALOGUE_SONGS, SAMPLE_SONGS } from '../lib/catalogue/sample-songs.ts'
import { PICKER_SEARCH_FROM, SongPicker } from './SongPicker.tsx'

// Pickers offer every song (all 45 catalogue songs here), with a search once the list is long.

const picks: string[] = []
function Harness({ songs = CATALOGUE_SONGS }: { songs?: typeof CATALOGUE_SONGS }) {
  const [value, setValue] = useState('')
  const pick = (id: string) => {
    picks.push(id)
    setValue(id)
  }
  return <SongPicker songs={songs} value={value} onChange={pick} label="Track to add" placeholder="Choose a track…" />
}
const options = (el: HTMLElement) => [...el.querySelectorAll('option')].map((o) => o.textContent)

describe('SongPicker', () => {
  it('offers every song as "Title — Artist"; the search narrows by title, artist or genre and keeps the chosen one', async () => {
    const el = render(<Harness />)
    expect(options(el)).toEqual(['Choose a track…', ...CATALOGUE_SONGS.map((s) => `${s.title} — ${s.artist}`)])
    const search = el.querySelector<HTMLInputElement>('input[type="search"]')!
    expect(search.getAttribute('aria-label')).toBe('Search songs')
    expect(search.getAttribute('aria-label')!.toLowerCase()).not.toContain('track to add') // the label finds the select alone

    await settle(() => userEvent.fill(search, 'kernél'))
    expect(options(el)).toEqual(['Choose a track…', 'Kernel Panic — Doom Protocol'])
    await settle(() => userEvent.selectOptions(el.querySelector('select')!, 'kernel-panic'))
    expect(picks.at(-1)).toBe('kernel-panic')

    await settle(() => userEvent.fill(search, 'folk'))
    const folk = CATALOGUE_SONGS.filter((s) => s.genre === 'folk')
    expect(options(el)).toEqual(['Choose a track…', 'Kernel Panic — Doom Protocol', ...folk.map((s) => `${s.title} — ${s.artist}`)])
    await settle(() => userEvent.fill(search, 'zzz'))
    expect(options(el)[0]).toBe('No song matches "zzz"')
  })

  it('shows no search field for a short list', () => {
    expect(SAMPLE_SONGS.length).toBeLessThanOrEqual(PICKER_SEARCH_FROM)
    const el = render(<Harness songs={SAMPLE_SONGS} />)
    expect(el.querySelector('input[type="search"]')).toBeNull()
    expect(options(el)).toHaveLength(SAMPLE_SONGS.length + 1)
  })
})
