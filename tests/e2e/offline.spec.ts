import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { expect, test } from './support/test.ts'
import { masterLevel, requireShippedSamples } from './player-fixtures.ts'

// Offline and install: the app is an installable PWA whose service worker precaches the
// app shell and never caches the API; a listener marks a playlist "available offline" and plays it
// with the network off; the plays made offline are reported once back online, and the server
// records them as plays that earn nothing (tests/backend/offline-plays.test.ts: the rules).
// The other specs block service workers (playwright.config.ts); this one lets the app install its own.
test.use({ serviceWorkers: 'allow' })

test('offline: installable; a saved playlist plays with the network off; its plays and edits reach the server once back online', async ({
  page,
  context,
}) => {
  requireShippedSamples()
  const user = await signUpByApi(page, { prefix: 'offline' })
  await page.goto('/app/playlists')
  await expect(page.getByRole('heading', { level: 1, name: 'Playlists' })).toBeVisible()

  // Installable: a manifest with a name, a start URL, standalone display and 192/512 px icons.
  const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href')
  const manifest = (await (await page.request.get(manifestUrl!)).json()) as {
    name: string
    start_url: string
    display: string
    icons: { src: string; sizes: string; type: string }[]
  }
  expect(manifest).toMatchObject({ name: 'CUBE Music', short_name: 'CUBE', start_url: '/app', display: 'standalone' })
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']))
  for (const icon of manifest.icons) {
    const response = await page.request.get(icon.src)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('image/png')
  }
  // The service worker takes this page at once (its first install).
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 })

  // Favorite Tracks, with two songs, made available offline.
  const status = page.getByTestId('offline-status')
  await expect(status).toHaveText('Save its songs on this device to play them with no connection.')
  const picker = page.getByLabel('Track to add')
  for (const label of ['Neon Drift — Synthwave Collective', 'Orbital Haze — Ambient Spaces']) {
    await picker.selectOption({ label })
    await page.getByRole('button', { name: 'Add track' }).click()
  }
  const tracks = page.getByRole('list', { name: 'Tracks in Favorite Tracks' })
  await expect(tracks.getByRole('listitem')).toHaveCount(2)
  await page.getByRole('switch', { name: 'Available offline' }).click()
  await expect(status).toHaveText('Available offline: all 2 songs play with no connection.', { timeout: 30_000 })

  await context.setOffline(true)
  // The app opens with no network: the page, its code and the saved songs come from the device.
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Playlists' })).toBeVisible()
  expect(
    await page.evaluate(() =>
      fetch('/rest/v1/songs?select=id').then(
        () => 'reached',
        () => 'offline',
      ),
    ),
  ).toBe('offline')
  await tracks.getByRole('button', { name: 'Play Neon Drift' }).click()
  await expect.poll(() => masterLevel(page), { timeout: 20_000 }).toBeGreaterThan(0.005)
  await page.getByRole('button', { name: 'Pause' }).first().click()

  // A song added while offline cannot be saved, and the switch says so in words; nor can it play.
  await picker.selectOption({ label: 'Circuit Breaker — Electronic Pulse' })
  await page.getByRole('button', { name: 'Add track' }).click()
  await expect(status).toHaveText('2 of 3 songs available offline. 1 not saved: "Circuit Breaker": the download failed (are you online?)')
  await tracks.getByRole('button', { name: 'Play Circuit Breaker' }).click()
  await expect(toast(page, /Could not play "Circuit Breaker"/)).toBeVisible()

  // Nothing the API answered was kept in any cache.
  const cachedApi = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url)
    return urls.filter((url) => /^\/(rest|auth|functions|realtime|api|chain)\//.test(new URL(url).pathname))
  })
  expect(cachedApi).toEqual([])

  // Back online: the offline play is reported, and the server recorded it as a play that earned nothing.
  await context.setOffline(false)
  await expect(toast(page, '1 play made offline added to your history')).toBeVisible({ timeout: 20_000 })
  const sessions = await page.request.get('/rest/v1/listening_sessions?select=song_id,outcome,credited&outcome=eq.offline', {
    headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${user.accessToken}` },
  })
  expect(await sessions.json()).toEqual([{ song_id: 'neon-drift', outcome: 'offline', credited: 0 }])
  // The song added offline reached the account too, and the playlist still holds it.
  await expect
    .poll(async () => {
      const favourites = await page.request.get('/rest/v1/favourites?select=song_id&order=created_at', {
        headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${user.accessToken}` },
      })
      return ((await favourites.json()) as { song_id: string }[]).map((f) => f.song_id)
    })
    .toEqual(['neon-drift', 'orbital-haze', 'circuit-breaker'])
  await expect(tracks.getByRole('listitem')).toHaveCount(3)
})
