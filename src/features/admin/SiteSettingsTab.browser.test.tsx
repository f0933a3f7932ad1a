import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../tests/component/render.tsx'
import { fetchSiteSettings, saveSiteSettings, type SiteSettings } from '../../backend/admin.ts'
import { SiteSettingsTab } from './SiteSettingsTab.tsx'

// The site settings form with the backend's calls mocked (its field rules, siteSettingsProblems,
// are the real ones): bad fields are named before anything is sent, a valid form is sent as numbers.

const STORED: SiteSettings = {
  site_title: 'CUBE Music',
  primary_color: '#8B5CF6',
  max_free_songs: 3,
  database_url_mask: null,
  api_base_url: null,
  api_timeout_ms: 30000,
  max_retries: 3,
  updated_at: '2026-11-01T00:00:00Z',
}

vi.mock('../../backend/client.ts', () => ({ supabase: () => ({}) }))
vi.mock('../../backend/admin.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../backend/admin.ts')>()),
  fetchSiteSettings: vi.fn(async () => STORED),
  saveSiteSettings: vi.fn(async () => STORED),
  listAdmins: vi.fn(async () => [{ email: 'admin@example.com', since: '2026-11-01T00:00:00Z' }]),
  setAdminRole: vi.fn(async () => undefined),
  fetchAudit: vi.fn(async () => []),
}))
vi.mock('../../domain/appearance/site-branding.ts', () => ({ applySiteSettings: vi.fn() }))

const field = (el: HTMLElement, label: string) => {
  const l = [...el.querySelectorAll('label')].find((x) => x.textContent === label)!
  return el.querySelector<HTMLInputElement>(`#${CSS.escape(l.htmlFor)}`)!
}
const problemOf = (input: HTMLInputElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent

async function renderLoaded() {
  const el = render(<SiteSettingsTab />)
  await expect.poll(() => el.querySelector('form[aria-label="Site settings"]')).not.toBeNull()
  return el
}
const save = (el: HTMLElement) =>
  settle(() => userEvent.click([...el.querySelectorAll('button')].find((b) => b.textContent === 'Save site settings')!))

beforeEach(() => vi.clearAllMocks())

describe('SiteSettingsTab', () => {
  it('fills the form from the stored settings', async () => {
    const el = await renderLoaded()
    expect(fetchSiteSettings).toHaveBeenCalledTimes(1)
    expect(field(el, 'Site title').value).toBe('CUBE Music')
    expect(field(el, 'API timeout (ms)').value).toBe('30000')
  })

  it('names a bad colour and a bad timeout and sends nothing', async () => {
    const el = await renderLoaded()
    await settle(() => userEvent.fill(field(el, 'Primary color'), '#12345'))
    await settle(() => userEvent.fill(field(el, 'API timeout (ms)'), '1500'))
    await save(el)
    expect(field(el, 'Primary color').getAttribute('aria-invalid')).toBe('true')
    expect(problemOf(field(el, 'Primary color'))).toMatch(/colou?r/i)
    expect(problemOf(field(el, 'API timeout (ms)'))).toMatch(/1000/)
    expect(field(el, 'Site title').getAttribute('aria-invalid')).toBeNull()
    expect(saveSiteSettings).not.toHaveBeenCalled()
  })

  it('sends a valid form with its numbers parsed and the empty database URL kept', async () => {
    const el = await renderLoaded()
    await settle(() => userEvent.fill(field(el, 'Site title'), 'Neon Hall'))
    await settle(() => userEvent.fill(field(el, 'Max retries'), '5'))
    await save(el)
    await expect.poll(() => vi.mocked(saveSiteSettings).mock.calls.length).toBe(1)
    expect(vi.mocked(saveSiteSettings).mock.calls[0]![1]).toEqual({
      siteTitle: 'Neon Hall',
      primaryColor: '#8B5CF6',
      maxFreeSongs: 3,
      databaseUrl: undefined,
      apiBaseUrl: '',
      apiTimeoutMs: 30000,
      maxRetries: 5,
    })
  })
})
