import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { startAiStandIn, type AiStandIn } from '../backend/support/ai-stand-in.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { register, toast } from './support/auth.ts'
import { OwnServer } from './support/own-server.ts'

// Admin Dashboard: on a server of its own (site-wide settings must not change the pages
// of specs running in parallel), with a local stand-in AI provider started by the test.

const E2E_PORT = Number(process.env.E2E_PORT ?? 4173)
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
const KEY = 'sk-e2e-stand-in-key-4321'

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click()

test.describe('Admin Dashboard on a server of its own', () => {
  // One administrator's session walks the dashboard; each part is a test of its own (serial: a failed
  // part skips the rest, and a retry runs them all again on a fresh server).
  test.describe.configure({ mode: 'serial' })
  const adminEmail = `boss-${unique()}@cube.test`
  let server: OwnServer
  let provider: AiStandIn
  let dataDir: string
  let context: BrowserContext
  let page: Page
  let origin: string

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(90_000)
    dataDir = mkdtempSync(join(tmpdir(), 'cube-admin-e2e-'))
    server = new OwnServer(E2E_PORT + 10_001, dataDir, {
      LOCAL_DATA_RESET: '1',
      LOCAL_ADMIN_EMAILS: adminEmail,
      AI_PROVIDER_ALLOWED_HOSTS: '127.0.0.1',
    })
    provider = await startAiStandIn(KEY)
    await server.start()
    origin = server.origin
    context = await browser.newContext()
    page = await context.newPage()
  })
  test.afterAll(async () => {
    await context?.close()
    await server?.dispose()
    await provider?.close()
  })

  test('a signed-in non-administrator sees "Administrators only"', async ({ browser }) => {
    const plainContext = await browser.newContext()
    const other = await plainContext.newPage()
    await other.goto(`${origin}/app/admin`)
    await register(other, `pl${unique()}`.slice(0, 20), `plain-${unique()}@cube.test`, 'plain-pass-1')
    await expect(other.getByTestId('admin-denied')).toContainText('Your account does not have the administrator role.')
    await plainContext.close()
  })

  test('the e-mail named in LOCAL_ADMIN_EMAILS signs up and gets in', async () => {
    await page.goto(`${origin}/app/admin`)
    await register(page, `boss${unique()}`.slice(0, 20), adminEmail, 'boss-pass-1')
    await expect(page.getByTestId('admin-page')).toBeVisible()
  })

  test('the dashboard leads with what this deployment uses; each AI provider says what it is for', async () => {
    await expect(page.getByRole('tablist', { name: 'Admin' }).getByRole('tab')).toHaveText([
      'Economy',
      'Site Settings',
      'API Config',
      'Knowledge Base',
      'Text AI',
      'Music AI',
      'Image AI',
      'Inference AI',
    ])
    await tab(page, 'Image AI')
    await expect(page.getByText(/^Not called as shipped: covers are drawn on the device\./)).toBeVisible()
    await tab(page, 'Text AI')
    await expect(page.getByText(/^Writes NFT descriptions in the Mint studio\./)).toBeVisible()
  })

  test('Text AI: a custom endpoint and key are saved, only the mask comes back, Test connection reports the provider', async () => {
    await tab(page, 'Text AI')
    const form = page.getByRole('form', { name: 'Text AI settings' })
    await form.getByLabel('Model').selectOption('Custom Endpoint')
    await form.getByLabel('Base URL').fill(provider!.url)
    await form.getByLabel('API key').fill('sk-wrong-key-0000')
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(toast(page, 'Text AI settings saved')).toBeVisible()
    await form.getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByTestId('connection-result')).toHaveText(
      'Connection failed — The provider answered 401: Incorrect API key provided.',
    )
    await form.getByLabel('API key').fill(KEY)
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(form.getByText('Saved key: ••••4321. Leave empty to keep it.')).toBeVisible()
    await expect(form.getByLabel('API key')).toHaveValue('')
    await form.getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByTestId('connection-result')).toHaveText(
      'Connection OK — Connected: 2 models available (stand-in-small, stand-in-large).',
    )
    expect(provider!.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`)
    // The key is nowhere in the browser: not in storage, not in the page, not in what the server answered.
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.documentElement.outerHTML,
    )
    expect(stored).not.toContain(KEY)
    const settings = await page.evaluate(async () => {
      const raw = localStorage.getItem(Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!)
      const token = (JSON.parse(raw!) as { access_token: string }).access_token
      const apikey = document.querySelector<HTMLMetaElement>('meta[name="cube-anon-key"]')!.content
      const res = await fetch('/rest/v1/ai_provider_settings?select=*', { headers: { apikey, Authorization: `Bearer ${token}` } })
      return res.text()
    })
    expect(settings).toContain('••••4321')
    expect(settings).not.toContain(KEY)
    // Nor in any script the app loaded.
    const scripts = await page.evaluate(async () => {
      const urls = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((u) => u.endsWith('.js'))
      return Promise.all(urls.map(async (u) => (await fetch(u)).text()))
    })
    expect(scripts.length).toBeGreaterThan(0)
    for (const text of scripts) expect(text).not.toContain(KEY)
  })

  test('with Text AI configured, the NFT description generator writes through the server', async () => {
    await page.goto(`${origin}/app/mint`)
    await page.getByTestId('mint-name').fill('Night Ride')
    await page.getByTestId('mint-track').selectOption({ label: 'Neon Drift — Synthwave Collective' })
    await page.getByTestId('ai-describe').click()
    await expect(page.getByTestId('mint-description')).toHaveValue(
      /^Stand-in \(Custom Endpoint\) says: Write a vivid two-sentence description for a music NFT named "Night Ride"/,
    )
    await expect(page.getByTestId('ai-describe-source')).toHaveText('Written by the site’s Text AI.')
    expect(provider!.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${KEY}` })
    await page.goto(`${origin}/app/admin`)
    await expect(page.getByTestId('admin-page')).toBeVisible()
  })

  test('Site Settings: bad values get a message; saved values are audited and brand the app for a visitor', async ({ browser }) => {
    await tab(page, 'Site Settings')
    const form = page.getByRole('form', { name: 'Site settings' })
    await form.getByLabel('Primary color').fill('#12345')
    await form.getByLabel('API timeout (ms)').fill('1500')
    await form.getByRole('button', { name: 'Save site settings' }).click()
    await expect(form.getByText('The primary colour must be a hex colour such as #8B5CF6.')).toBeVisible()
    await expect(form.getByText('The API timeout must be at least 1000 ms, in steps of 1000.')).toBeVisible()
    await form.getByLabel('Site title').fill('Neon Nights')
    await form.getByLabel('Primary color').fill('#22CCAA')
    await form.getByLabel('API timeout (ms)').fill('6000')
    await form.getByLabel('Database connection URL').fill('postgresql://cube:hunter2@db.example.com:5432/cube')
    await form.getByRole('button', { name: 'Save site settings' }).click()
    await expect(toast(page, 'Site settings saved')).toBeVisible()
    await expect(form.getByText('Saved: postgresql://cube:••••@db.example.com:5432/cube. Leave empty to keep it.')).toBeVisible()
    await expect(page.getByTestId('admin-audit')).toContainText('site · primary_color: (empty) → #22CCAA')
    await expect(page.getByTestId('admin-audit')).not.toContainText('hunter2')

    const visitorContext = await browser.newContext()
    const visitor = await context.newPage()
    await visitor.goto(`${origin}/app/library`)
    await expect(visitor.getByTestId('site-title')).toHaveText('Neon Nights')
    await expect
      .poll(() =>
        visitor.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--theme-primary').trim().toLowerCase()),
      )
      .toBe('#22ccaa')
    await expect(visitor).toHaveTitle(/· Neon Nights$/)
    await visitorContext.close()
  })

  test('Knowledge Base: missing information, add, preview at 100 characters, edit, delete', async () => {
    await tab(page, 'Knowledge Base')
    await page.getByRole('button', { name: 'Add Entry' }).click()
    await expect(toast(page, 'Missing information')).toBeVisible()
    const long = 'Every qualifying listen earns CUBE, up to the daily cap; claims move the pot into the balance. '.repeat(3)
    await page.getByLabel('Title').fill('Rewards')
    await page.getByLabel('Content').fill(long)
    await page.getByRole('button', { name: 'Add Entry' }).click()
    await expect(toast(page, 'Entry added')).toBeVisible()
    await expect(page.getByTestId('kb-preview')).toHaveText(`${long.slice(0, 100)}…`)
    await page.getByRole('button', { name: 'Edit Rewards' }).click()
    await page.getByLabel('Title').fill('Rewards and claims')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(toast(page, 'Entry updated')).toBeVisible()
    await page.getByLabel('Search the knowledge base').fill('claims')
    await expect(page.getByTestId('kb-list').getByText('Rewards and claims')).toBeVisible()
    await page.getByRole('button', { name: 'Delete Rewards and claims' }).click()
    await expect(toast(page, 'Entry deleted')).toBeVisible()
    await expect(page.getByText('Nothing matches.')).toBeVisible()
  })

  test('API Config: backend URL, version and live health', async () => {
    await tab(page, 'API Config')
    await expect(page.getByTestId('backend-url')).toHaveText(origin)
    await expect(page.getByTestId('health-list').getByText(/Healthy/)).toHaveCount(4)
    await expect(page.getByTestId('health-list')).toContainText('Chain (ethereum)')
    await expectNoSeriousA11yViolations(page)
  })
})
