import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { button, byRole, field } from '../../../tests/component/ui.ts'
import type { SiteSettings, SiteSettingsInput } from '../../backend/admin.ts'
import { SiteSettingsTab } from './SiteSettingsTab.tsx'

// The site settings form with a fake backend (its field rules, siteSettingsProblems,
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

const fetchSiteSettings = vi.fn(async () => STORED)
const saveSiteSettings = vi.fn(async (_client: unknown, _input: SiteSettingsInput) => STORED)
const server = fakeBackend({
  admin: {
    fetchSiteSettings,
    saveSiteSettings,
    listAdmins: async () => [{ email: 'admin@example.com', since: '2026-11-01T00:00:00Z' }],
    setAdminRole: async () => undefined,
    fetchAudit: async () => [],
  },
})
vi.mock('../../domain/appearance/site-branding.ts', () => ({ applySiteSettings: vi.fn() }))

const problemOf = (input: HTMLInputElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent

async function renderLoaded() {
  const el = renderWithBackend(<SiteSettingsTab />, server.backend)
  await expect.poll(() => byRole(el, 'form', 'Site settings')).toBeTruthy()
  return el
}
const save = (el: HTMLElement) => settle(() => userEvent.click(button(el, 'Save site settings')))

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
    await expect.poll(() => saveSiteSettings.mock.calls.length).toBe(1)
    expect(saveSiteSettings.mock.calls[0]![1]).toEqual({
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
