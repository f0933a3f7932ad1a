import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { logIn, toast } from './support/auth.ts'
import { signUpByApi, type ApiUser } from './support/session.ts'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { MICROPHONE_FLAGS, launchOptions } from './support/browser.ts'
import { makeWav, tone } from './fixtures/audio.ts'

// A creator's work follows the account: a generated track, a microphone take and a paid remix made
// in one browser are listed, played, published and remixed in another browser signed in to the same account
// (src/domain/collection/creation-sync.ts, supabase/schemas/creations.sql); deleting one there frees
// its room in the account's storage.

const FIXTURE_DIR = mkdtempSync(join(tmpdir(), 'cube-creations-'))
const MIC_WAV = join(FIXTURE_DIR, 'mic-330.wav')
writeFileSync(MIC_WAV, makeWav([tone(330, 12, 48000, 0.5)], 48000))
test.use({
  launchOptions: launchOptions([...MICROPHONE_FLAGS, `--use-file-for-fake-audio-capture=${MIC_WAV}`]),
  permissions: ['microphone'],
})

/** The master bus's RMS right now (0 until the engine has started). */
const masterLevel = (page: Page) =>
  page.evaluate(() => (window as unknown as { __cube?: { masterLevel?: () => number } }).__cube?.masterLevel?.() ?? 0)
const usage = (page: Page) => page.getByTestId('account-storage-usage')
const usedBytes = async (page: Page, token: string) =>
  (
    (await (
      await page.request.post('/rest/v1/rpc/account_storage', {
        headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      })
    ).json()) as { used_bytes: number }
  ).used_bytes

// One journey in two parts (each within the e2e time budget), run in order in one worker.
test.describe.configure({ mode: 'serial' })
let user: ApiUser
const titles: string[] = []

test('first browser: a generated track, a six-second take and a remix paid with 50 CUBE reach the account in the background', async ({
  page,
}) => {
  test.setTimeout(90_000)
  user = await signUpByApi(page, { prefix: 'cloud' })

  await test.step('generate and save a track', async () => {
    await page.goto('/app/create')
    const form = page.getByRole('form', { name: 'Generate music' })
    await form.getByLabel('Description').fill('warm night drive')
    await form.getByRole('button', { name: 'Generate Track' }).click()
    const card = page.getByTestId('generated-track')
    await expect(card).toBeVisible({ timeout: 60_000 })
    titles.push((await card.getByRole('heading').first().innerText()).trim())
    await page.getByRole('button', { name: 'Save to Library' }).click()
    await expect(page).toHaveURL(/\/app\/library$/)
  })

  await test.step('record six seconds and keep the take', async () => {
    await page.goto('/app/studio')
    await page.getByRole('button', { name: 'Record Microphone' }).click()
    await expect(page.getByTestId('recording-elapsed')).toHaveText(/^0:0[6-9]/, { timeout: 20_000 })
    await page.getByRole('button', { name: 'Stop Recording' }).click()
    await toast(page, 'Recording saved').getByRole('button', { name: 'Save to Library' }).click()
    const saved = toast(page, 'Saved to your Library')
    await expect(saved).toBeVisible()
    titles.push((await saved.innerText()).match(/"(.+)"/)![1]!)
  })

  await test.step('a remix paid with 50 CUBE', async () => {
    await page.goto('/app/remix')
    await expect(page.getByTestId('remix-balance')).toHaveText('100 CUBE')
    const wav = makeWav([tone(220, 8, 44100, 0.4), tone(277, 8, 44100, 0.4)], 44100)
    await page.getByTestId('remix-file').setInputFiles({ name: 'Cloud Hum.wav', mimeType: 'audio/wav', buffer: wav })
    await expect(page.getByTestId('remix-play')).toBeEnabled({ timeout: 45_000 })
    await page.getByTestId('remix-create-button').click()
    await page.getByTestId('remix-confirm-burn').click()
    await expect(page.getByTestId('remix-create')).toHaveAttribute('data-state', 'remixed', { timeout: 60_000 })
    await expect(page.getByTestId('remix-balance')).toHaveText('50 CUBE')
    titles.push('Cloud Hum (Remix)')
  })

  await page.getByRole('link', { name: 'Library' }).first().click()
  await expect(usage(page)).toContainText('3 tracks in your account', { timeout: 30_000 })
  await expect(page.getByTestId('creation-upload')).toHaveCount(0)
})

test('second browser, same account: each plays (its audio from the account), publishes and remixes; deleting one frees its room', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  expect(titles).toHaveLength(3)
  const other = await browser.newContext({ baseURL })
  try {
    const second = await other.newPage()
    await second.goto('/app/library')
    await logIn(second, user.email, user.password)
    await expect(usage(second)).toContainText('3 tracks in your account', { timeout: 30_000 })

    for (const title of titles) {
      await second.getByRole('button', { name: `Play ${title}`, exact: true }).click()
      await expect(second.getByRole('button', { name: `Pause ${title}`, exact: true })).toBeVisible()
      await expect.poll(() => masterLevel(second), { timeout: 30_000 }).toBeGreaterThan(0.001)
      await second.getByRole('button', { name: `Pause ${title}`, exact: true }).click()

      await second.getByRole('button', { name: `Publish ${title}`, exact: true }).click()
      const dialog = second.getByTestId('publish-dialog')
      await dialog.getByRole('button', { name: 'Publish', exact: true }).click()
      await expect(dialog.getByRole('link', { name: 'Open its page' })).toBeVisible({ timeout: 30_000 })
      await dialog.getByRole('button', { name: 'Close' }).click()
    }
    await expect(second.getByTestId('published-track')).toHaveCount(3)

    await test.step('the take made in the first browser is remixed here, from its audio in the account', async () => {
      await second.goto('/app/remix')
      // What the first browser's remix left (making, saving and publishing pay nothing).
      await expect(second.getByTestId('remix-balance')).toHaveText('50 CUBE')
      const source = second.getByTestId('remix-source')
      const value = await source.evaluate(
        (select: HTMLSelectElement, title) => [...select.options].find((o) => o.text.startsWith(`${title} —`))?.value ?? '',
        titles[1]!,
      )
      expect(value, `${titles[1]} among the remix sources`).not.toBe('')
      await source.selectOption(value)
      await expect(second.getByTestId('remix-play')).toBeEnabled({ timeout: 45_000 })
      await second.getByTestId('remix-create-button').click()
      await second.getByTestId('remix-confirm-burn').click()
      await expect(second.getByTestId('remix-create')).toHaveAttribute('data-state', 'remixed', { timeout: 60_000 })
      await expect(second.getByTestId('remix-balance')).toHaveText('0 CUBE')
      await second.goto('/app/library')
      await expect(usage(second)).toContainText('4 tracks in your account', { timeout: 30_000 })
    })

    const before = await usedBytes(second, user.accessToken)
    second.once('dialog', (d) => void d.accept())
    await second.getByRole('button', { name: `Delete ${titles[1]}`, exact: true }).click()
    await expect(toast(second, `Deleted “${titles[1]}”`)).toContainText('Removed from this device and from your account')
    await expect(usage(second)).toContainText('3 tracks in your account')
    expect(await usedBytes(second, user.accessToken)).toBeLessThan(before)
    // Its published copy stays; Delete is offered only on the user's own tracks.
    await expect(second.getByRole('button', { name: `Delete ${titles[1]}`, exact: true })).toHaveCount(0)
  } finally {
    await other.close()
  }
})
