import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { OwnServer } from './support/own-server.ts'
import { logIn, openAuth, register, toast } from './support/auth.ts'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { SAMPLE_SONGS } from '../../src/lib/catalogue/sample-songs.ts'
import { encodeWav } from '../../workers/wav-encoding.ts'

// Accounts, wallet basics and server-credited listening, end to end against the real built app
// and the embedded local backend (auth, rest, functions on PGlite).

const E2E_PORT = Number(process.env.E2E_PORT ?? 4173)
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`

/**
 * The song played in the journey must last 80 s like its catalogue entry (the server's threshold is
 * min(30 s, half of that)). The built app's own file is used when the build ships it; otherwise a
 * generated 80 s tone answers the request so the real player, deck and reporter still run.
 */
async function serveSongAudio(page: Page, songId: string) {
  const song = SAMPLE_SONGS.find((s) => s.id === songId)!
  if (existsSync(join(process.env.DIST_DIR ?? 'dist', song.audioUrl))) return
  const rate = 8000
  const samples = new Float32Array(80 * rate)
  for (let i = 0; i < samples.length; i++) samples[i] = 0.2 * Math.sin((2 * Math.PI * 220 * i) / rate)
  const body = Buffer.from(encodeWav([samples], rate, 'pcm16'))
  await page
    .context()
    .route(`**${song.audioUrl}`, (route) =>
      route.fulfill({ status: 200, contentType: 'audio/wav', body, headers: { 'Cross-Origin-Resource-Policy': 'same-origin' } }),
    )
}

const walletCard = (page: Page) => page.getByTestId('wallet-basics')

async function expectWallet(page: Page, figures: { balance: number; daily: number; progress: string }) {
  const card = walletCard(page)
  await expect(card).toHaveAttribute('data-source', 'server')
  await expect(card.getByTestId('wallet-balance')).toHaveText(`${figures.balance} CUBE`)
  await expect(card.getByTestId('wallet-daily-earned')).toHaveText(`${figures.daily} CUBE`)
  await expect(card.getByTestId('wallet-progress')).toHaveText(figures.progress)
}

async function signUpThroughApi(origin: string, email: string, password: string) {
  const res = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, data: { username: email.split('@')[0] } }),
  })
  expect(res.status).toBe(200)
}

test.describe('listening earns CUBE on the server, and it stays earned; roles come from the server', () => {
  // Parts of one journey on one server (each well under 90 s): the later ones log in to the account
  // the first made and earned with. Serial: a failed first part skips the second, and a retry runs both.
  test.describe.configure({ mode: 'serial' })
  let server: OwnServer
  const adminEmail = `boss-${unique()}@cube.test`
  const email = `listener-${unique()}@cube.test`
  const password = 'correct horse battery'

  test.beforeAll(async () => {
    test.setTimeout(60_000)
    const dataDir = mkdtempSync(join(tmpdir(), 'cube-account-e2e-'))
    // Its own port, derived from ours so parallel engineers' runs never collide.
    // Nothing here mints: the server runs without the embedded chain (about 5 s less per start).
    server = new OwnServer(E2E_PORT + 10_000, dataDir, { LOCAL_DATA_RESET: '1', LOCAL_ADMIN_EMAILS: adminEmail, LOCAL_CHAIN: 'off' })
    await server.start()
  })
  test.afterAll(async () => {
    await server?.dispose()
  })

  test('a visitor plays, registers mid-play → 100 CUBE → past the threshold → 102 in the wallet, one session, one credit', async ({
    page,
  }) => {
    // 30 s of real playback: within the 90 s every test keeps to.
    test.setTimeout(90_000)
    await serveSongAudio(page, 'neon-drift')
    const listenCalls: string[] = []
    page.on('request', (r) => r.url().includes('/rest/v1/rpc/listen_') && listenCalls.push(r.postData() ?? ''))

    // As a visitor, like a track (the local favourite must follow the account onto the server) and
    // start a song: a visitor's play reports nothing, and signing in mid-play starts its session.
    await page.goto(`${server.origin}/app/library`)
    await page.getByRole('button', { name: 'Like Rainy Terminal' }).click()
    await expect(page.getByRole('button', { name: 'Like Rainy Terminal' })).toHaveAttribute('aria-pressed', 'true')
    await page.getByRole('button', { name: 'Play Neon Drift', exact: true }).click()
    // Move around the app while it plays (the player keeps going).
    await page.getByRole('link', { name: 'Profile', exact: true }).click()
    await expect(page.getByTestId('profile-preview-notice')).toBeVisible()
    expect(listenCalls).toEqual([])
    await register(page, `listener_${unique()}`, email, password)
    await expect(toast(page, 'Registration successful')).toBeVisible()
    await expect(toast(page, 'Wallet initialized')).toBeVisible()
    await expect(page.getByTestId('account-email')).toHaveText(email)
    await expect(page.getByRole('dialog')).toBeHidden()
    await expect(page.getByTestId('profile-preview-notice')).toBeHidden()
    await expectWallet(page, { balance: 100, daily: 0, progress: '0/20' })
    await expect(page.getByTestId('achievement').filter({ hasText: 'Early Adopter' })).toHaveAttribute('data-earned', 'true')
    await expect(page.getByTestId('achievement').filter({ hasText: 'First Listen' })).toHaveAttribute('data-earned', 'false')
    // The visitor's favourites (only Rainy Terminal: a visitor starts with nothing liked) are now the account's.
    await expect(page.getByTestId('profile-playlist').filter({ hasText: 'Favorite Tracks' })).toContainText('1 track')
    await expect(page.getByTestId('bar-title')).toHaveText('Neon Drift')

    // A like while signed in goes to the server too.
    await page.getByRole('link', { name: 'Library', exact: true }).click()
    await page.getByRole('button', { name: 'Like Circuit Breaker' }).click()
    // So does a new playlist with a track in it.
    await page.getByRole('link', { name: 'Playlists', exact: true }).click()
    await expect(page.getByText('Saved to your account.')).toBeVisible()
    await page.getByLabel('New playlist name').fill('Night Drive')
    await page.getByRole('button', { name: 'Create playlist' }).click()
    await page.getByLabel('Track to add').selectOption({ label: 'Low Tide Memory — Chillwave Coast' })
    await page.getByRole('button', { name: 'Add track' }).click()
    await expect(page.getByRole('list', { name: 'Tracks in Night Drive' })).toContainText('Low Tide Memory')
    await page.getByRole('link', { name: 'Wallet', exact: true }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Crypto Wallet' })).toBeVisible()
    await expectWallet(page, { balance: 100, daily: 0, progress: '0/20' })
    // The Admin item follows the server's administrator role (an administrator gets it: the next test).
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' })).toHaveCount(0)
    // A listen qualifies after 30 s of real playback since the sign-in (80 s track): the server
    // credits the song's 2 CUBE. The toast shows for a few seconds when the server's answer arrives:
    // watched first, then the figures.
    await expect(toast(page, '+2 CUBE')).toBeVisible({ timeout: 60_000 })
    await expect(walletCard(page).getByTestId('wallet-balance')).toHaveText('102 CUBE')
    await expectWallet(page, { balance: 102, daily: 2, progress: '1/20' })
    await expect(walletCard(page).getByTestId('wallet-tracks-today')).toHaveText('1')
    const history = walletCard(page).getByTestId('token-activity-item')
    await expect(history).toHaveCount(2)
    await expect(history.first()).toContainText('Neon Drift')
    await expect(history.first()).toContainText('+2 CUBE')
    await expect(history.nth(1)).toContainText('Welcome bonus')
    await expect(history.nth(1)).toContainText('+100 CUBE')

    // The server measured the listen: the app said which song and "playing", never how long.
    expect(JSON.parse(listenCalls[0]!)).toMatchObject({ p_song_id: 'neon-drift' })
    for (const call of listenCalls) expect(call).not.toContain('seconds')
    // One session for this play (its heartbeats report on it), begun once, credited once; the
    // player bar shows the position, past the 30 s of the session, on every page.
    expect(listenCalls.filter((c) => c.includes('p_song_id'))).toHaveLength(1)
    const sessions = new Set(listenCalls.filter((c) => c.includes('p_session_id')).map((c) => JSON.parse(c).p_session_id as string))
    expect(sessions.size).toBe(1)
    const [minutes, seconds] = (await page.getByTestId('player-position').first().innerText()).split(':').map(Number)
    expect(minutes! * 60 + seconds!).toBeGreaterThan(30)
    await expect(walletCard(page).getByTestId('wallet-balance')).toHaveText('102 CUBE')
  })

  test('an account named in LOCAL_ADMIN_EMAILS gets the Admin item and page from the server', async ({ browser }) => {
    await checkAdminAccount(browser, server.origin, adminEmail)
  })

  test('after the credit: Now Playing and the profile show the listen, Admin stays shut, logging out shows the sample wallet', async ({
    page,
  }) => {
    await page.goto(`${server.origin}/app/home`)
    await logIn(page, email, password)
    await expect(toast(page, 'Login successful')).toBeVisible()
    await expectWallet(page, { balance: 102, daily: 2, progress: '1/20' })

    // Now Playing: its Token Activity is the ledger, and it says what the server credited.
    await page.goto(`${server.origin}/now-playing`)
    const activity = page.getByRole('region', { name: 'Token Activity' })
    await expect(activity).toContainText('Neon Drift')
    await expect(activity).toContainText('+2')
    await expect(activity).toContainText('+100')
    await expect(activity).not.toContainText('Sample activity')

    // Profile: the listen shows up in Recent Tracks and earns First Listen.
    await page.goto(`${server.origin}/app/home`)
    await expect(page.getByTestId('recent-track').first()).toContainText('Neon Drift')
    await expect(page.getByTestId('achievement').filter({ hasText: 'First Listen' })).toHaveAttribute('data-earned', 'true')
    await expect(page.getByTestId('profile-plays')).toHaveText('1')
    await expectNoSeriousA11yViolations(page)

    // A normal account does not get in by typing the address either.
    await page.goto(`${server.origin}/app/admin`)
    await expect(page.getByText('Administrators only')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0)
    await page.goto(`${server.origin}/app/home`)

    // Log out and back in.
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(toast(page, 'Logged out successfully')).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Login / Register' })).toBeVisible()
    await expect(walletCard(page).getByTestId('wallet-balance')).toHaveText('158 CUBE')
    // Signed out, this browser shows the sample playlists again, not the account's.
    await page.getByRole('link', { name: 'Library', exact: true }).click()
    await expect(page.getByRole('button', { name: 'Like Rainy Terminal' })).toHaveAttribute('aria-pressed', 'false')
  })

  test('log in again → still 102 → restart the server → still 102 → a fresh browser has it all; sign-up switched off says so', async ({
    page,
  }) => {
    test.setTimeout(90_000)
    await page.goto(`${server.origin}/app/home`)
    await logIn(page, email, password)
    await expect(toast(page, 'Login successful')).toBeVisible()
    await expect(toast(page, 'Welcome back!')).toBeVisible()
    await expectWallet(page, { balance: 102, daily: 2, progress: '1/20' })

    // Restart the server on the same data folder (no reset) with e-mail sign-up switched off.
    await server.stop()
    await server.start({ LOCAL_DATA_RESET: '', LOCAL_EMAIL_SIGNUP: 'off' })
    await page.goto(`${server.origin}/app/wallet`)
    await expect(page.getByTestId('account-email')).toHaveText(email)
    await expectWallet(page, { balance: 102, daily: 2, progress: '1/20' })

    // And in a fresh browser context (no stored session): log in again, still 102.
    const fresh = await page.context().browser()!.newContext()
    const other = await fresh.newPage()
    await other.goto(`${server.origin}/app/wallet`)
    await logIn(other, email, password)
    await expectWallet(other, { balance: 102, daily: 2, progress: '1/20' })
    // Favourites came from the server: the visitor-era like and the signed-in like.
    await other.getByRole('link', { name: 'Library', exact: true }).click()
    await expect(other.getByRole('button', { name: 'Like Rainy Terminal' })).toHaveAttribute('aria-pressed', 'true')
    await expect(other.getByRole('button', { name: 'Like Circuit Breaker' })).toHaveAttribute('aria-pressed', 'true')
    await expect(other.getByRole('button', { name: 'Like Low Tide Memory' })).toHaveAttribute('aria-pressed', 'false')
    await other.getByRole('link', { name: 'Playlists', exact: true }).click()
    await other
      .getByRole('navigation', { name: 'Your playlists' })
      .getByRole('button', { name: /Night Drive/ })
      .click()
    await expect(other.getByRole('list', { name: 'Tracks in Night Drive' })).toContainText('Low Tide Memory')
    await other.getByRole('button', { name: 'Logout' }).click()
    await expect(other.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Login / Register' })).toBeVisible()

    // The operator switched e-mail sign-up off: registering says so.
    await register(other, 'late_comer', `late-${unique()}@cube.test`, password)
    const disabled = 'Email registration is disabled. Please enable it in the backend dashboard or contact support.'
    await expect(toast(other, 'Registration failed')).toContainText(disabled)
    await expect(other.getByRole('dialog').getByRole('alert')).toHaveText(disabled)
    await fresh.close()
  })
})

/** A second account, named in LOCAL_ADMIN_EMAILS, gets the Admin item and page from the server's role. */
async function checkAdminAccount(browser: Browser, origin: string, email: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${origin}/app/home`)
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0)
  await register(page, 'the_boss', email, 'a-long-enough-password')
  await expect(page.getByTestId('account-email')).toHaveText(email)
  await expect(nav.getByRole('link', { name: 'Admin' })).toBeVisible()
  await nav.getByRole('link', { name: 'Admin' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible()
  await expect(page.getByRole('tablist', { name: 'Admin' })).toBeVisible()
  await context.close()
}

test('visitors see the sample wallet and profile with a preview notice', async ({ page }) => {
  await page.goto('/app/home')
  await expect(page.getByRole('heading', { level: 1, name: 'My Profile' })).toBeVisible()
  await expect(page.getByTestId('profile-preview-notice')).toContainText('sample data')
  const card = walletCard(page)
  await expect(card).toHaveAttribute('data-source', 'sample')
  await expect(card.getByTestId('wallet-balance')).toHaveText('158 CUBE')
  await expect(card.getByTestId('wallet-daily-earned')).toHaveText('24 CUBE')
  await expect(card.getByTestId('wallet-progress')).toHaveText('13/20')
  await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '13')
  await expect(card.getByTestId('token-activity-item')).toHaveCount(7)
  await expect(page.getByTestId('profile-username')).toHaveText('CyberListener')
  await expect(page.getByTestId('achievement')).not.toHaveCount(0)
  await expect(page.getByTestId('recent-track')).not.toHaveCount(0)
  await expect(page.getByTestId('profile-playlist')).toHaveCount(2)
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' })).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)

  await page.goto('/app')
  await expect(page.getByRole('heading', { level: 1, name: 'My Profile' })).toBeVisible()

  await page.goto('/app/wallet')
  await expect(page.getByRole('heading', { level: 1, name: 'Crypto Wallet' })).toBeVisible()
  await expect(page.getByText('Connect your wallet and manage your tokens')).toBeVisible()
  await expect(page.getByTestId('wallet-connect-view')).toContainText('Sign in first')
  await expect(walletCard(page).getByTestId('wallet-balance')).toHaveText('158 CUBE')
  await expectNoSeriousA11yViolations(page)

  await page.goto('/app/admin')
  await expect(page.getByText('Administrators only')).toBeVisible()
})

test('Share Profile copies the /user/{username} link', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto('/app/home')
  await page.getByRole('button', { name: 'Share Profile' }).click()
  await expect(toast(page, 'Link copied')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`http://127.0.0.1:${E2E_PORT}/user/CyberListener`)
})

// The dialog's behaviour (tabs, required fields, focus trap, empty submit, Escape) is a component
// test: src/features/account/AuthModal.browser.test.tsx. Here, the scan with the app's real styles.
test('the login dialog has no serious accessibility violations on either tab', async ({ page }) => {
  await page.goto('/app/home')
  const opener = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Login / Register' })
  const dialog = await openAuth(page, 'Log In')
  await expect(dialog).toHaveAttribute('aria-modal', 'true')
  await expectNoSeriousA11yViolations(page)
  await dialog.getByRole('tab', { name: 'Register' }).click()
  await expect(dialog.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true')
  await expectNoSeriousA11yViolations(page)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect(opener).toBeFocused()
})

test('login and registration failures show the exact messages', async ({ page, baseURL }) => {
  const email = `known-${unique()}@cube.test`
  await signUpThroughApi(baseURL!, email, 'the-right-password')
  await page.goto('/app/home')

  // Wrong password: the server's message in the toast and inline.
  const dialog = await logIn(page, email, 'the-wrong-password')
  await expect(toast(page, 'Login failed')).toContainText('Invalid login credentials')
  const inline = dialog.getByRole('alert')
  await expect(inline).toHaveText('Invalid login credentials')
  await expect(inline).toHaveClass(/text-red/)
  await expect(page.getByTestId('account-email')).toHaveCount(0)

  // No answer from the server: the fallback texts.
  await page.route('**/auth/v1/token**', (route) => route.abort('connectionrefused'))
  await dialog.getByRole('button', { name: 'Log In' }).click()
  await expect(toast(page, 'Please check your credentials and try again')).toBeVisible()
  await expect(inline).toHaveText('Failed to login. Please check your credentials.')
  await page.unroute('**/auth/v1/token**')

  // Registering an e-mail that already has an account: the server's message.
  await dialog.getByRole('tab', { name: 'Register' }).click()
  await dialog.getByLabel('Username').fill(`dup_${unique()}`)
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Password').fill('another-password')
  await dialog.getByRole('button', { name: 'Create Account' }).click()
  await expect(toast(page, 'Registration failed')).toContainText('User already registered')
  await expect(dialog.getByRole('alert')).toHaveText('User already registered')

  // Registration with no answer (an address the form's first question finds free): the generic registration message.
  await dialog.getByLabel('Email').fill(`free-${unique()}@cube.test`)
  await page.route('**/auth/v1/signup**', (route) => route.abort('connectionrefused'))
  await dialog.getByRole('button', { name: 'Create Account' }).click()
  await expect(toast(page, 'There was an error creating your account. Please try again.')).toBeVisible()
})

test('a failed wallet initialisation says so and can be retried', async ({ page }) => {
  const email = `wobbly-${unique()}@cube.test`
  let fail = true
  await page.route('**/functions/v1/init-user-tokens', (route) =>
    fail ? route.fulfill({ status: 503, body: '{"message":"unavailable"}', contentType: 'application/json' }) : route.fallback(),
  )
  await page.goto('/app/wallet')
  await register(page, `wobbly_${unique()}`, email, 'a-long-enough-password')
  await expect(toast(page, 'Wallet initialization failed')).toContainText('There was an error setting up your wallet. Please try again.')
  fail = false
  await walletCard(page).getByRole('button', { name: 'Try again' }).click()
  await expectWallet(page, { balance: 100, daily: 0, progress: '0/20' })
})

test('once the daily cap is reached the player promises nothing and says why', async ({ page }) => {
  // The server's cap itself is covered by the backend's ledger tests; here the app must show the
  // server's capped answer faithfully. A 4 s track qualifies after 2 s, so this stays quick.
  const rate = 8000
  const samples = new Float32Array(4 * rate).map((_, i) => 0.2 * Math.sin((2 * Math.PI * 330 * i) / rate))
  const body = Buffer.from(encodeWav([samples], rate, 'pcm16'))
  await page.route('**/audio/samples/orbital-haze.mp3', (route) =>
    route.fulfill({ status: 200, contentType: 'audio/wav', body, headers: { 'Cross-Origin-Resource-Policy': 'same-origin' } }),
  )
  const calls: unknown[] = []
  await page.route('**/rest/v1/rpc/listen_*', async (route) => {
    calls.push(route.request().postDataJSON())
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        session_id: 'capped-session',
        heard_seconds: 2,
        needs_interaction: false,
        credited: 0,
        balance: 140,
        daily_earned: 40,
        listens_today: 20,
        daily_cap: 20,
        cap_reached: true,
        reason: 'daily_cap',
      }),
    })
  })
  await page.goto('/app/library')
  await register(page, `capped_${unique()}`, `capped-${unique()}@cube.test`, 'a-long-enough-password')
  await expect(page.getByTestId('account-email')).toBeVisible()
  await page.getByRole('button', { name: 'Play Orbital Haze', exact: true }).click()
  await expect(toast(page, 'Daily listening cap reached (20/20)')).toBeVisible({ timeout: 15_000 })
  expect(calls[0]).toMatchObject({ p_song_id: 'orbital-haze' })
  expect(calls[0]).not.toHaveProperty('p_seconds')
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: /^\+\d+ CUBE/ })).toHaveCount(0)

  await page.getByRole('link', { name: 'Wallet', exact: true }).first().click()
  await expect(walletCard(page).getByTestId('wallet-progress')).toHaveText('20/20')
  await expect(walletCard(page).getByTestId('wallet-cap-note')).toContainText('Daily listening cap reached (20/20)')
  // Pressing play again no longer flashes '+N CUBE per listen'.
  await page.getByRole('link', { name: 'Library', exact: true }).click()
  await page.getByRole('button', { name: 'Play Neon Drift', exact: true }).click()
  await expect(page.getByTestId('reward-pop')).toHaveText('Daily listening cap reached (20/20)')
})
