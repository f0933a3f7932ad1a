import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { formatLoop } from '../../src/features/remix/loop-region.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { accessToken } from './support/eip1193.ts'

// Remix Studio end to end: the real page, the real DSP in the browser, the real local backend.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
const rest = (token: string) => ({ apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' })
const masterLevel = (page: Page) => page.evaluate(() => (window as unknown as { __cube: { masterLevel(): number } }).__cube.masterLevel())

/** A 16-bit mono WAV file of `seconds` at `rate`, filled by `sample(i)`. */
function wav(seconds: number, rate: number, sample: (i: number) => number): Buffer {
  const n = Math.round(seconds * rate)
  const b = Buffer.alloc(44 + 2 * n)
  b.write('RIFF', 0)
  b.writeUInt32LE(36 + 2 * n, 4)
  b.write('WAVEfmt ', 8)
  b.writeUInt32LE(16, 16)
  b.writeUInt16LE(1, 20)
  b.writeUInt16LE(1, 22)
  b.writeUInt32LE(rate, 24)
  b.writeUInt32LE(2 * rate, 28)
  b.writeUInt16LE(2, 32)
  b.writeUInt16LE(16, 34)
  b.write('data', 36)
  b.writeUInt32LE(2 * n, 40)
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(32767 * Math.max(-1, Math.min(1, sample(i)))), 44 + 2 * i)
  return b
}

async function pickSong(page: Page, id: string) {
  await page.getByTestId('remix-source').selectOption(id)
  await expect(page.getByTestId('remix-bpm')).toHaveText(/^\d{2,3} BPM$/, { timeout: 45_000 })
  await expect(page.getByTestId('remix-play')).toBeEnabled({ timeout: 45_000 })
}

test(
  'visitor: bad sources get clear messages; the preview plays through the engine (the player bar pauses); Create Remix ' + 'asks to log in',
  async ({ page }) => {
    test.setTimeout(90_000)
    await page.goto('/app/remix')
    await expect(page.getByRole('heading', { name: 'Remix Studio', level: 1 })).toBeVisible()
    await expect(page.getByText('Create remixes by burning tokens')).toBeVisible()
    await expect(page.getByTestId('remix-cost')).toHaveText('50 CUBE')
    await expect(page.getByTestId('remix-balance-bar')).toContainText('Log in')

    await test.step('bad input: undecodable, 1 s, silence, 20 minutes → clear messages, nothing breaks', async () => {
      const file = page.getByTestId('remix-file')
      const error = page.getByTestId('remix-source-error')
      await file.setInputFiles({ name: 'broken.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('this is not audio at all') })
      await expect(error).toContainText('could not be decoded')
      await file.setInputFiles({ name: 'blip.wav', mimeType: 'audio/wav', buffer: wav(1, 8000, (i) => 0.3 * Math.sin(i / 3)) })
      await expect(error).toContainText('too short to remix (1.0 s')
      await file.setInputFiles({ name: 'silence.wav', mimeType: 'audio/wav', buffer: wav(10, 8000, () => 0) })
      await expect(error).toContainText('silent')
      await file.setInputFiles({ name: 'long.wav', mimeType: 'audio/wav', buffer: wav(20 * 60, 8000, (i) => 0.2 * Math.sin(i / 5)) })
      await expect(error).toContainText('too long to remix (20 min', { timeout: 30_000 })
    })

    await test.step('the player bar and the preview never play at once', async () => {
      await page.goto('/app/library')
      await page.getByRole('button', { name: 'Play Neon Drift' }).click()
      const mini = page.getByRole('region', { name: 'Player' })
      await expect(mini.getByRole('button', { name: 'Pause', exact: true })).toBeVisible()
      await page.getByRole('link', { name: 'Remix Tracks' }).first().click()
      await pickSong(page, 'circuit-breaker')
      await expect(page.getByTestId('remix-key')).toHaveText(/^[A-G]#? (major|minor)$/)
      await page.getByTestId('remix-play').click()
      await expect(page.getByTestId('remix-play')).toHaveAttribute('data-playing', 'true')
      await expect(mini.getByRole('button', { name: 'Play', exact: true })).toBeVisible()
      await expect.poll(() => masterLevel(page)).toBeGreaterThan(0.005)
      await expect(page.getByTestId('remix-time')).not.toHaveText(/^0:00 \//)
      await mini.getByRole('button', { name: 'Play', exact: true }).click()
      await expect(page.getByTestId('remix-play')).toHaveAttribute('data-playing', 'false')
      await mini.getByRole('button', { name: 'Pause', exact: true }).click()
    })

    await test.step('Create Remix asks a visitor to log in', async () => {
      await page.getByTestId('remix-create-button').click()
      await expect(toast(page, 'Log in to create a remix')).toBeVisible()
      await expect(page.getByRole('dialog')).toBeVisible()
    })
  },
)

test(
  'visitor: tools, samples and effects are live, Beat Match re-prepares at the target tempo; the waveform loops a ' +
    'dragged region and A–B marks from the keyboard',
  async ({ page }) => {
    test.setTimeout(90_000)
    await page.goto('/app/remix')
    await pickSong(page, 'circuit-breaker')

    await test.step('tools, samples and effects are live; Beat Match re-prepares at the target tempo', async () => {
      await page.getByTestId('remix-play').click()
      await page.getByTestId('tool-harmonize').check()
      await page.getByTestId('tool-autotune').check()
      await page.getByTestId('sample-drums').check()
      await page.getByTestId('fx-distortion').fill('80')
      await expect(page.getByTestId('fx-distortion-value')).toHaveText('80%')
      await page.getByTestId('tool-beatmatch').check()
      const bpm = Number((await page.getByTestId('remix-bpm').textContent())!.split(' ')[0])
      await page.getByTestId('tool-beatmatch-target').fill(String(bpm + 10))
      await expect(page.getByTestId('tool-beatmatch-target-value')).toHaveText(`${bpm + 10} BPM`)
      // The preparing status can come and go between two looks under load: what is checked is that
      // the preview ends up prepared at the target tempo and playing.
      await expect(page.getByTestId('remix-preview')).toHaveAttribute('data-prepared-bpm', String(bpm + 10), { timeout: 45_000 })
      await expect(page.getByTestId('remix-play')).toHaveAttribute('data-playing', 'true', { timeout: 45_000 })
      await expect.poll(() => masterLevel(page)).toBeGreaterThan(0.005)
      await page.getByTestId('remix-play').click()
    })

    await test.step(
      'a drag across 30–45 % of the waveform loops that region: shown, playback wraps at its end and never ' +
        'leaves it; a click seeks and makes no loop; Enter on Clear loop lets playback run on; [ and ] mark a loop ' +
        'from the keyboard, Escape clears it',
      async () => {
        const wave = page.getByTestId('remix-waveform')
        const readout = page.getByTestId('remix-loop')
        // The drawn playhead and region, in seconds (the visible times are whole seconds).
        const seconds = (name: string) => wave.getAttribute(name).then(Number)
        const position = () => seconds('data-position')
        const duration = Number(await wave.getAttribute('aria-valuemax'))
        await page.getByTestId('remix-play').click()
        await expect(page.getByTestId('remix-play')).toHaveAttribute('data-playing', 'true')
        await expect(readout).toHaveText('')
        await wave.scrollIntoViewIfNeeded()
        const box = (await wave.boundingBox())!
        const y = box.height / 2
        await wave.hover({ position: { x: box.width * 0.3, y } })
        await page.mouse.down()
        await page.mouse.move(box.x + box.width * 0.45, box.y + y, { steps: 8 })
        await page.mouse.up()
        await expect(wave).toHaveAttribute('data-loop-end')
        const start = await seconds('data-loop-start')
        const end = await seconds('data-loop-end')
        expect(Math.abs(start - 0.3 * duration)).toBeLessThan(0.01 * duration + 0.5)
        expect(Math.abs(end - 0.45 * duration)).toBeLessThan(0.01 * duration + 0.5)
        await expect(readout).toHaveText(formatLoop({ start, end }))

        // A click inside the region seeks there (5 % of the song before its end) and leaves the loop alone.
        expect(await position()).toBeLessThan(0.4 * duration - 1)
        await wave.click({ position: { x: box.width * 0.4, y } })
        await expect.poll(position).toBeGreaterThan(0.4 * duration - 0.5)
        expect(await seconds('data-loop-start')).toBe(start)
        expect(await seconds('data-loop-end')).toBe(end)

        // Sample the playhead until it has passed the end, come back to the start and played on.
        const seen: number[] = []
        const wrap = () => seen.findIndex((p, i) => i > 0 && seen[i - 1]! > end - 1 && p < start + 1)
        await expect
          .poll(
            async () => {
              seen.push(await position())
              return wrap() > 0 && seen.length - wrap() >= 10
            },
            { message: 'the playhead reaches the loop end, comes back to its start and plays on', intervals: [100], timeout: 30_000 },
          )
          .toBe(true)
        expect(Math.min(...seen)).toBeGreaterThanOrEqual(start - 0.25)
        expect(Math.max(...seen)).toBeLessThanOrEqual(end + 0.25)

        await page.getByRole('button', { name: 'Clear loop' }).press('Enter')
        await expect(readout).toHaveText('')
        await expect(wave).not.toHaveAttribute('data-loop-start')
        await wave.click({ position: { x: box.width * 0.4, y } })
        await expect(readout).toHaveText('')
        await expect.poll(position, { timeout: 15_000 }).toBeGreaterThan(end + 1)

        // Keyboard A–B on the focused waveform: '[' at the playhead, a 5 s step, ']' → a ~5 s loop; Escape clears it.
        // From a fifth of the way in: under load the playhead had run on so near the end that the
        // 5 s step passed it, and ']' then marked from the start.
        await wave.click({ position: { x: box.width * 0.2, y } })
        await expect.poll(position, { timeout: 15_000 }).toBeLessThan(duration * 0.3)
        await wave.focus()
        await wave.press('[')
        await expect(wave).toHaveAttribute('data-loop-start')
        const markA = await seconds('data-loop-start')
        await wave.press('ArrowRight')
        await wave.press(']')
        await expect.poll(() => seconds('data-loop-end')).toBeLessThan(duration - 1)
        const markB = await seconds('data-loop-end')
        expect(await seconds('data-loop-start')).toBe(markA)
        expect(markB - markA).toBeGreaterThan(4.5)
        expect(markB - markA).toBeLessThan(7.5)
        await expect(readout).toHaveText(formatLoop({ start: markA, end: markB }))
        await wave.press('Escape')
        await expect(readout).toHaveText('')
        await page.getByTestId('remix-play').click()
      },
    )
  },
)

test(
  'signed in: draft saved and reopened; 10 concurrent burns → one debit; burn 100 → 50 once through cancels, a retry ' +
    'and a reload; WAV and Library; 30 → refused',
  async ({ page }) => {
    test.setTimeout(90_000)
    await signUpByApi(page, { prefix: 'r' })
    await page.goto('/app/remix')
    await expect(page.getByTestId('remix-balance')).toHaveText('100 CUBE')
    const token = await accessToken(page)
    const ledger = async (reason: string) =>
      (await (
        await page.request.get(`/rest/v1/token_ledger?reason=eq.${reason}&select=amount,reference`, { headers: rest(token) })
      ).json()) as { amount: number; reference: string }[]

    await test.step('Save Draft keeps the whole state across a reload; nothing is spent', async () => {
      await pickSong(page, 'neon-drift')
      await page.getByTestId('fx-reverb').fill('20')
      await page.getByTestId('tool-harmonize').check()
      await page.getByTestId('remix-save-draft').click()
      await expect(toast(page, 'Draft saved')).toBeVisible()
      await page.reload()
      await expect(page.getByTestId('remix-drafts')).toContainText('Neon Drift (Remix draft)')
      await page.getByTestId('remix-drafts').getByRole('button', { name: 'Open' }).first().click()
      await expect(page.getByTestId('remix-play')).toBeEnabled({ timeout: 45_000 })
      await expect(page.getByTestId('fx-reverb-value')).toHaveText('20%')
      await expect(page.getByTestId('tool-harmonize')).toBeChecked()
      await expect(page.getByTestId('remix-balance')).toHaveText('100 CUBE')
    })

    await test.step('10 concurrent burns with one attempt key → one debit, all answered with the same remix; refunded once', async () => {
      const key = `e2e-${unique()}`
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          page.request
            .post('/rest/v1/rpc/remix_burn', { headers: rest(token), data: { p_source: 'circuit-breaker', p_attempt_key: key } })
            .then((r) => r.json() as Promise<{ remix_id: string; balance: number; charged: boolean }>),
        ),
      )
      expect(new Set(answers.map((a) => a.remix_id)).size).toBe(1)
      expect(answers.filter((a) => a.charged)).toHaveLength(1)
      expect(Math.min(...answers.map((a) => a.balance))).toBe(50)
      const refund = await (
        await page.request.post('/rest/v1/rpc/remix_refund', { headers: rest(token), data: { p_remix_id: answers[0]!.remix_id } })
      ).json()
      expect(refund).toMatchObject({ balance: 100 })
      expect(await ledger('remix_refund')).toHaveLength(1)
    })

    await test.step(
      'Create Remix: burn once; a cancelled render, a retry cancelled again and a reload mid-attempt never ' + 'charge again',
      async () => {
        await page.getByTestId('remix-create-button').click()
        await page.getByTestId('remix-confirm-burn').click()
        await page.getByTestId('remix-cancel-render').click()
        await expect(page.getByTestId('remix-create')).toHaveAttribute('data-state', 'failed')
        await expect(page.getByTestId('remix-error')).toHaveText('Render cancelled')
        await expect(page.getByTestId('remix-balance')).toHaveText('50 CUBE')
        await page.getByTestId('remix-retry').click()
        await page.getByTestId('remix-cancel-render').click()
        await expect(page.getByTestId('remix-create')).toHaveAttribute('data-state', 'failed')
        await page.reload()
        await expect(page.getByTestId('remix-pending')).toContainText('Neon Drift')
        await expect(page.getByTestId('remix-balance')).toHaveText('50 CUBE')
        await page.getByTestId('remix-resume').click()
        await expect(page.getByTestId('remix-create')).toHaveAttribute('data-state', 'remixed', { timeout: 90_000 })
        await expect(page.getByTestId('remix-create-button')).toHaveText('Remix Created!')
        await expect(page.getByTestId('remix-create-button')).toBeDisabled()
        await expect(page.getByTestId('remix-pending')).toHaveCount(0)
        await expect(page.getByTestId('remix-balance')).toHaveText('50 CUBE')
        const debits = await ledger('remix')
        expect(debits.filter((d) => d.reference === 'neon-drift')).toEqual([{ amount: -50, reference: 'neon-drift' }])
      },
    )

    await test.step('the result: a WAV download and a Library track "Neon Drift (Remix)"', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('remix-download').click()])
      expect(download.suggestedFilename()).toBe('Neon Drift (Remix).wav')
      const path = await download.path()
      const { readFileSync } = await import('node:fs')
      const bytes = readFileSync(path)
      expect(bytes.subarray(0, 4).toString()).toBe('RIFF')
      expect(bytes.subarray(8, 12).toString()).toBe('WAVE')
      // 1:25 of stereo 16-bit audio at the context's rate (44.1 or 48 kHz), plus the effects' tail.
      expect(bytes.length).toBeGreaterThan(85 * 44100 * 4)
      await page.getByRole('link', { name: 'Library' }).first().click()
      await expect(page.getByText('Neon Drift (Remix)').first()).toBeVisible()
    })

    await test.step(
      'at 30 CUBE Create Remix is disabled with a clear message and the server refuses the burn: ' + 'nothing burned',
      async () => {
        const spent = await page.request.post('/rest/v1/rpc/spend_tokens', {
          headers: rest(token),
          data: { p_amount: 20, p_reason: 'proposal', p_ref: `e2e-${unique()}` },
        })
        expect(spent.ok()).toBe(true)
        await page.goto('/app/remix')
        await expect(page.getByTestId('remix-balance')).toHaveText('30 CUBE')
        await expect(page.getByTestId('remix-insufficient')).toContainText('You need at least 50 CUBE')
        await expect(page.getByTestId('remix-create-button')).toBeDisabled()
        const refused = await page.request.post('/rest/v1/rpc/remix_burn', {
          headers: rest(token),
          data: { p_source: 'neon-drift', p_attempt_key: `e2e-${unique()}` },
        })
        expect(refused.ok()).toBe(false)
        expect(await refused.text()).toContain('insufficient_balance')
        const wallet = (await (await page.request.get('/rest/v1/user_tokens?select=balance', { headers: rest(token) })).json()) as {
          balance: number
        }[]
        expect(wallet[0]!.balance).toBe(30)
        expect(await ledger('remix')).toHaveLength(2)
      },
    )
  },
)
