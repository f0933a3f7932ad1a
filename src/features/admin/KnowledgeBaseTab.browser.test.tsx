import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { button, field, textOf } from '../../../tests/component/ui.ts'
import { notify } from '../../lib/notify.ts'
import { KnowledgeBaseTab } from './KnowledgeBaseTab.tsx'

// The knowledge base with a fake backend: an entry needs a title and content, a new one is
// added, an edited one updated, and the list is searched again after each change.

const ENTRY = {
  id: 'k1',
  title: 'Rewards',
  content: 'Listening earns CUBE.',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
}

const searchKnowledge = vi.fn(async () => [ENTRY])
const addKnowledge = vi.fn(async () => undefined)
const updateKnowledge = vi.fn(async () => undefined)
const deleteKnowledge = vi.fn(async () => undefined)
const server = fakeBackend({ admin: { searchKnowledge, addKnowledge, updateKnowledge, deleteKnowledge } })
vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }))

async function renderLoaded() {
  const el = renderWithBackend(<KnowledgeBaseTab />, server.backend)
  await expect.poll(() => textOf(el, 'kb-list')).toContain('Rewards')
  return el
}

beforeEach(() => vi.clearAllMocks())

describe('KnowledgeBaseTab', () => {
  it('asks for both a title and content before adding anything', async () => {
    const el = await renderLoaded()
    await settle(() => userEvent.fill(field(el, 'Title'), 'Only a title'))
    await settle(() => userEvent.click(button(el, 'Add Entry')))
    expect(notify.error).toHaveBeenCalledWith('Missing information', {
      description: 'Please enter both a title and content for the knowledge base entry.',
    })
    expect(addKnowledge).not.toHaveBeenCalled()
  })

  it('adds a new entry, clears the form and searches again', async () => {
    const el = await renderLoaded()
    const searches = searchKnowledge.mock.calls.length
    await settle(() => userEvent.fill(field(el, 'Title'), 'Caps'))
    await settle(() => userEvent.fill(field(el, 'Content'), 'Fifty a day.'))
    await settle(() => userEvent.click(button(el, 'Add Entry')))
    await expect.poll(() => addKnowledge.mock.calls.length).toBe(1)
    expect(addKnowledge.mock.calls[0]!.slice(1)).toEqual(['Caps', 'Fifty a day.'])
    expect(notify.success).toHaveBeenCalledWith('Entry added')
    expect(field(el, 'Title').value).toBe('')
    await expect.poll(() => searchKnowledge.mock.calls.length).toBeGreaterThan(searches)
  })

  it('edits an entry in place: the form takes its text and Save updates that entry', async () => {
    const el = await renderLoaded()
    await settle(() => userEvent.click(button(el, 'Edit Rewards')))
    expect(field(el, 'Content').value).toBe('Listening earns CUBE.')
    await settle(() => userEvent.fill(field(el, 'Content'), 'Listening earns CUBE daily.'))
    await settle(() => userEvent.click(button(el, 'Save')))
    await expect.poll(() => updateKnowledge.mock.calls.length).toBe(1)
    expect(updateKnowledge.mock.calls[0]!.slice(1)).toEqual(['k1', 'Rewards', 'Listening earns CUBE daily.'])
    expect(addKnowledge).not.toHaveBeenCalled()
    expect(deleteKnowledge).not.toHaveBeenCalled()
  })
})
