import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import jsQR from 'jsqr'
import { readFile } from 'node:fs/promises'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { otherSite, proxyFrom } from './support/other-address.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

// Share & Earn and Listen to Earn against the built app and the real local backend: every CUBE
// figure here is the server's answer (share_create / share_visit_begin / open_share, recommend_songs,
// the wallet).

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`

async function signUp(page: Page, prefix: string) {
  const username = `${prefix}_${unique()}`
  await signUpByApi(page, { username, email: `${username}@example.com` })
  await page.goto('/app/listen')
  await expect(page.getByTestId('stat-balance')).toHaveText('100')
  return username
}

/** Decodes a PNG (a data: or blob URL the page can load) back to its QR text. */
async function decodeQr(page: Page, png: Buffer): Promise<string | null> {
  const { width, height, data } = await page.evaluate(async (b64) => {
    const img = new Image()
    img.src = `data:image/png;base64,${b64}`
    await img.decode()
    const c = document.createElement('canvas')
    c.width = img.width
    c.height = img.height
    const g = c.getContext('2d')!
    g.drawImage(img, 0, 0)
    return { width: c.width, height: c.height, data: Array.from(g.getImageData(0, 0, c.width, c.height).data) }
  }, png.toString('base64'))
  return jsQR(Uint8ClampedArray.from(data), width, height)?.data ?? null
}

test('Share & Earn: a share is pending until another visitor opens its link, then credited live; QR carries the link; analytics', async ({
  page,
  context,
  baseURL,
  browser,
}) => {
  // A sign-up, eight steps, two axe scans and a QR decode: about 25 s alone, past 60 s in a loaded gate.
  test.setTimeout(90_000)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  // The intents open in a new tab; nothing leaves the machine.
  await context.route(/twitter\.com|facebook\.com/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>intent</title>' }),
  )
  const username = await signUp(page, 'sharer')

  await test.step('tabs are sub-routes; the banner states the server rules and what makes a share pay', async () => {
    await page.goto('/app/sharing')
    await expect(page).toHaveURL(/\/app\/sharing\/tracks$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Share & Earn' })).toBeVisible()
    await expect(page.getByTestId('share-rewards-banner')).toContainText(
      'Twitter +10 · Facebook +10 · Copy link +5 · QR +15 · Share Now +5 CUBE',
    )
    await expect(page.getByTestId('share-rewards-banner')).toContainText('pays when someone else opens your link')
    await expect(page.getByTestId('share-link')).toHaveValue(/\/song\/[a-z0-9-]+$/)
    await expectNoSeriousA11yViolations(page)
  })

  let copied = ''
  await test.step('copy link: the link carries a token, copied for 2 s, pending and nothing paid', async () => {
    await page.getByRole('button', { name: /Copy link/ }).click()
    await expect(page.getByRole('button', { name: /Copied!/ })).toBeVisible()
    copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toMatch(new RegExp(`^${baseURL}/song/[a-z0-9-]+\\?s=[0-9a-f]{64}$`))
    await expect(page.getByTestId('share-link')).toHaveValue(copied)
    await expect(page.getByTestId('share-targets').getByText('Pending — pays 5 CUBE when someone opens your link')).toBeVisible()
    // The label comes back after its 2 s.
    await expect(page.getByRole('button', { name: /Copy link/ })).toBeVisible()
  })

  await test.step('another site embedding the link pays nothing; a friend opening it in the app pays +5, live for the sharer', async () => {
    // The friend's device and the other site's visitor: another client address (127.0.0.2).
    const elsewhere = await proxyFrom('127.0.0.2')
    const token = new URL(copied).searchParams.get('s')!
    const api = `${baseURL}/rest/v1/rpc`
    // Another site (another origin: its own port) opens the link for its visitors: an <img> at the
    // RPC, with and without the public key, and fetch() calls with its own Origin.
    const attacker = await otherSite(`<!doctype html><title>elsewhere</title>
      <img src="${api}/open_share?p_token=${token}"><img src="${api}/open_share?p_token=${token}&apikey=${LOCAL_ANON_KEY}">
      <script>
        const headers = { apikey: '${LOCAL_ANON_KEY}', 'Content-Type': 'application/json' }
        const post = (fn, body) => fetch('${api}/' + fn, { method: 'POST', headers, body: JSON.stringify(body) })
          .then(async (r) => [r.status, await r.json()])
        window.answers = Promise.all([post('share_visit_begin', { p_token: '${token}' }), post('open_share', { p_token: '${token}' })])
      </script>`)
    try {
      const friend = await browser.newContext({ proxy: elsewhere.proxy })
      const site = await friend.newPage()
      await site.goto(attacker.url)
      const [begun, opened] = await site.evaluate(
        () => (window as unknown as { answers: Promise<[number, { message?: string }][]> }).answers,
      )
      expect([begun![0], begun![1].message]).toEqual([401, 'share_visit_not_from_app'])
      expect(opened).toEqual([200, { credited: false, reason: 'not_from_app' }])
      await site.waitForTimeout(3000)
      await expect(page.getByTestId('share-targets').getByText('Pending — pays 5 CUBE when someone opens your link')).toBeVisible()

      // The friend opens the shared link in the app: the page is shown, its visit counts once.
      const shared = await friend.newPage()
      await shared.goto(copied)
      await expect(shared).toHaveURL(/\/song\/[a-z0-9-]+$/)
      await expect(page.getByTestId('share-targets').getByText('Credited +5 CUBE')).toBeVisible({ timeout: 15_000 })
      await expect(toast(page, '+5 CUBE')).toBeVisible()
      await friend.close()
    } finally {
      await attacker.close()
      await elsewhere.close()
    }
  })

  await test.step('QR: size 180, the PNG download decodes back to the QR link (its own token), pending', async () => {
    await page.getByRole('button', { name: /QR code/ }).click()
    const img = page.getByTestId('share-qr').getByRole('img')
    await expect(img).toHaveAttribute('width', '180')
    await expect(page.getByTestId('share-targets').getByText('Pending — pays 15 CUBE when someone opens your link')).toBeVisible()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()])
    expect(download.suggestedFilename()).toMatch(/\.png$/)
    const png = await readFile((await download.path())!)
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    const qr = await decodeQr(page, png)
    expect(qr).toMatch(new RegExp(`^${baseURL}/song/[a-z0-9-]+\\?s=[0-9a-f]{64}$`))
    expect(qr).not.toBe(copied)
  })

  await test.step('Twitter intent in a new tab carries its own link', async () => {
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: /^Twitter/ }).click()])
    expect(popup.url()).toContain('twitter.com/intent/tweet')
    expect(decodeURIComponent(popup.url())).toMatch(/\/song\/[a-z0-9-]+\?s=[0-9a-f]{64}/)
    await popup.close()
    await expect(page.getByTestId('share-targets').getByText('Pending — pays 10 CUBE when someone opens your link')).toBeVisible()
  })

  await test.step('profile link is /user/{username}; analytics counts the paid share and the waiting ones', async () => {
    const sections = page.getByRole('navigation', { name: 'Sharing sections' })
    await sections.getByRole('link', { name: 'Profile' }).click()
    await expect(page).toHaveURL(/\/app\/sharing\/profile$/)
    await expect(page.getByTestId('share-link')).toHaveValue(`${baseURL}/user/${username}`)
    await sections.getByRole('link', { name: 'Analytics' }).click()
    await expect(page).toHaveURL(/\/app\/sharing\/analytics$/)
    await expect(page.getByTestId('stat-shares')).toHaveText('1')
    await expect(page.getByTestId('stat-shares-pending')).toHaveText('2')
    await expect(page.getByTestId('analytics-chart').getByRole('listitem')).toHaveCount(30)
    const cache = await page.evaluate(() => JSON.parse(localStorage.getItem('shareCount') ?? 'null'))
    expect(cache).toEqual({ twitter: 0, facebook: 0, copy: 1, qr: 0 })
    await page.setViewportSize({ width: 375, height: 800 })
    await expectNoSeriousA11yViolations(page)
  })

  await test.step('the balance is the server’s: 100 + 5 (only the opened link paid)', async () => {
    await page.goto('/app/listen')
    await expect(page.getByTestId('stat-balance')).toHaveText('105')
  })

  await test.step('the sharer opening their own link pays nothing; the token leaves the address bar', async () => {
    await page.goto(copied.replace(baseURL!, ''))
    await expect(page).toHaveURL(/\/song\/[a-z0-9-]+$/)
    await page.goto('/app/listen')
    await expect(page.getByTestId('stat-balance')).toHaveText('105')
  })
})

/** The ids in a recommendation list, in order. */
const ids = (page: Page, list: string) =>
  page
    .getByTestId(list)
    .getByTestId('rec-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-song-id')))

async function likeOnly(page: Page, like: string) {
  // In the Library every catalogue song has its heart (a recommendation list shows only some of 45).
  await page.goto('/app/library')
  // The hearts are the account's once its playlists are loaded (the sync records whose they are);
  // read before that, they would be the visitor's and flip under the click.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('cube-playlists-owner')), { timeout: 20_000 }).not.toBeNull()
  // Keep only the chosen like (a visitor's sample likes never reach an account; this checks it).
  for (const title of ['Neon Drift', like]) {
    const heart = page.getByRole('button', { name: `Like ${title}` }).first()
    await expect(heart).toBeVisible()
    const pressed = (await heart.getAttribute('aria-pressed')) === 'true'
    if ((title === like) !== pressed) {
      await heart.click()
      await expect(heart).toHaveAttribute('aria-pressed', title === like ? 'true' : 'false')
    }
  }
}

test('Listen to Earn for visitors: preview figures and the popular list; axe clean', async ({ page }) => {
  await page.goto('/app/listen')
  // The first load of a fresh context: in d6618b5's CI retry, beside CUBE Radio composing, over 10 s.
  await expect(page.getByRole('heading', { level: 1, name: 'Listen to Earn' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('stats-preview')).toBeVisible()
  // How many depends on what other specs played on this shared server in the last 7 days.
  await expect(page.getByTestId('daily-recs').getByTestId('rec-row').first()).toBeVisible()
  await expect(page.getByTestId('rec-reward').first()).toHaveText(/^\+\d+ CUBE$/)
  await expectNoSeriousA11yViolations(page)
})

test('Listen to Earn: recommendations per user from likes, Refresh and Shuffle New change the lists', async ({ browser }) => {
  // Two contexts and two a11y scans beside the CUBE Radio spec, which composes on the other core.
  test.setTimeout(90_000)
  const a = await (await browser.newContext()).newPage()
  const b = await (await browser.newContext()).newPage()
  await test.step('two users with different likes get their preferred genre first', async () => {
    await signUp(a, 'ambient')
    await signUp(b, 'lofi')
    await expect(a.getByTestId('stat-limit')).toHaveText('0/20')
    await likeOnly(a, 'Orbital Haze')
    await likeOnly(b, 'Rainy Terminal')
    await a.goto('/app/listen')
    await b.goto('/app/listen')
    // The likes reach the server through the app's sync; a reload ranks with them. A reload and the
    // ranking call take seconds on a loaded two-core run (the 1 s per try of d6618b5's CI never passed).
    for (const [page, genre] of [
      [a, 'ambient'],
      [b, 'lofi'],
    ] as const) {
      await expect(async () => {
        await page.reload()
        await expect(page.getByTestId('daily-recs').getByTestId('rec-row').first()).toHaveAttribute('data-genre', genre, { timeout: 5000 })
      }).toPass({ timeout: 30_000 })
    }
    expect(await ids(a, 'daily-recs')).not.toEqual(await ids(b, 'daily-recs'))
    await b.setViewportSize({ width: 375, height: 800 })
    await expectNoSeriousA11yViolations(b)
  })

  await test.step('stable for the day; Refresh and Shuffle New change what is shown', async () => {
    const daily = await ids(a, 'daily-recs')
    await a.reload()
    await expect(a.getByTestId('daily-recs').getByTestId('rec-row')).toHaveCount(daily.length)
    expect(await ids(a, 'daily-recs')).toEqual(daily)
    for (const [list, button, before] of [
      ['daily-recs', 'Refresh', daily],
      ['discoveries', 'Shuffle New', await ids(a, 'discoveries')],
    ] as const) {
      await expect(async () => {
        await a.getByTestId(list).getByRole('button', { name: button }).click()
        await expect.poll(() => ids(a, list), { timeout: 3000 }).not.toEqual(before)
      }).toPass({ timeout: 20_000 })
    }
    // Refresh re-ranks but the liked genre stays on top.
    await expect(a.getByTestId('daily-recs').getByTestId('rec-row').first()).toHaveAttribute('data-genre', 'ambient')
  })

  await test.step('Your Playlists tab', async () => {
    await a.getByRole('tab', { name: 'Your Playlists' }).click()
    await expect(a.getByTestId('listen-playlist').first()).toBeVisible()
    await a.getByLabel('Playlist name').fill('Focus')
    await a.getByRole('button', { name: 'New Playlist' }).click()
    await expect(a.getByTestId('listen-playlist').filter({ hasText: 'Focus' })).toContainText('0 tracks')
    await expect(a.getByRole('link', { name: 'View All Tracks' })).toHaveAttribute('href', '/app/library')
    await expectNoSeriousA11yViolations(a)
  })
})

const openStation = async (page: Page) => {
  await page.goto('/app/stream')
  await expect(page.getByRole('heading', { level: 1, name: 'CUBE Radio' })).toBeVisible()
}
const tuneIn = (page: Page) => page.getByRole('button', { name: 'Play the station' }).click()
// The station plays its first segment about a second after Play (docs/benchmarks.md, Play to
// sound); a loaded CI machine composes far slower than that.
const onAir = (page: Page) => expect(page.getByText('On air')).toBeVisible({ timeout: 60_000 })

test('Stream: two listeners 10 s apart, one with a clock 25 s fast, hear one piece at one position and see each other; axe clean', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const a = await (await browser.newContext()).newPage()
  const contextB = await browser.newContext({ viewport: { width: 375, height: 800 } })
  // The programme runs on the server's clock, not the device's.
  await contextB.addInitScript(() => {
    const skew = 25_000
    const origin = performance.timeOrigin + skew
    Object.defineProperty(Performance.prototype, 'timeOrigin', { get: () => origin })
    const deviceNow = Date.now.bind(Date)
    Date.now = () => deviceNow() + skew
  })
  const b = await contextB.newPage()
  const seconds = async (page: Page) => {
    const [m, s] = (await page.getByTestId('station-position').innerText()).split(':').map(Number)
    return m! * 60 + s!
  }
  await test.step('listener A tunes in; B joins 10 s later', async () => {
    // A steer no other test plays: its audience (Realtime presence) is these two listeners only.
    for (const page of [a, b]) {
      await openStation(page)
      await page.getByLabel('Mood').selectOption('mysterious')
      await page.getByLabel('Genre').selectOption('folk')
      await expect(page.getByTestId('station-listeners')).toHaveText('0 listening now')
    }
    await tuneIn(a)
    const aTunedInAt = Date.now()
    // B presses Play 10 s after A did, whether or not A's first piece is ready yet: the two pages
    // compose at the same time instead of one after the other, and the test proves the same thing.
    await b.waitForTimeout(Math.max(0, 10_000 - (Date.now() - aTunedInAt)))
    await tuneIn(b)
    await onAir(a)
    await onAir(b)
    await expectNoSeriousA11yViolations(a)
    await expectNoSeriousA11yViolations(b)
  })
  await test.step('same piece, same position ±1 s, same up next', async () => {
    await expect(async () => {
      const [ta, tb, pa, pb] = await Promise.all([
        a.getByTestId('station-title').innerText(),
        b.getByTestId('station-title').innerText(),
        seconds(a),
        seconds(b),
      ])
      expect(tb).toBe(ta)
      expect(Math.abs(pa - pb)).toBeLessThanOrEqual(1)
    }).toPass({ timeout: 5000 })
    expect(await b.getByTestId('station-next').innerText()).toBe(await a.getByTestId('station-next').innerText())
  })
  await test.step('each sees both listening now; when B stops, A sees one and B, still on the page, sees A', async () => {
    await expect(a.getByTestId('station-listeners')).toHaveText('2 listening now, you included')
    await expect(b.getByTestId('station-listeners')).toHaveText('2 listening now, you included')
    await b.getByRole('button', { name: 'Stop the station', exact: true }).first().click()
    await expect(a.getByTestId('station-listeners')).toHaveText('1 listening now, you included')
    await expect(b.getByTestId('station-listeners')).toHaveText('1 listening now')
  })
})

test('Stream: the player bar shows the station, skips to the next piece and stops it', async ({ page }) => {
  test.setTimeout(90_000)
  await openStation(page)
  await tuneIn(page)
  await onAir(page)
  const before = await page.getByTestId('station-title').innerText()
  await expect(page.getByTestId('mini-station')).toContainText(before)
  await page.getByRole('button', { name: 'Skip to the next station piece' }).click()
  // The next piece may still be composing on a loaded machine: the title changes first, then it sounds.
  await expect(page.getByTestId('station-title')).not.toHaveText(before, { timeout: 45_000 })
  await expect(page.getByTestId('station-position')).not.toHaveText('0:00')
  await expect(page.getByText('On air')).toBeVisible({ timeout: 45_000 })
  await page.getByRole('button', { name: 'Stop the station', exact: true }).first().click()
  await expect(page.getByTestId('mini-station')).toHaveCount(0)
})
