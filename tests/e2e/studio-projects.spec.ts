import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { logIn, toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { makeWav, tone } from './fixtures/audio.ts'

// Studio projects kept in the account by themselves: metadata on the server (studio_projects) and,
// uploaded in the background after each save, the full copy (mix and audio) in Storage, so another
// browser signed in to the same account lists and opens it. Runs against the built app and the
// embedded backend (webServer).

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
interface ApiSession {
  access_token: string
  user: { id: string }
}
/** The user's API session, signed in once per test (each password grant costs the server a bcrypt comparison). */
async function apiSession(origin: string, email: string, password: string): Promise<ApiSession> {
  const login = await fetch(`${origin}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  expect(login.status).toBe(200)
  return (await login.json()) as ApiSession
}
/** Server-side view of the user's rows, through the REST API as that user (RLS applies). */
async function serverProjects(
  origin: string,
  session: ApiSession,
): Promise<{ id: string; name: string; track_count: number; duration_seconds: number }[]> {
  const res = await fetch(`${origin}/rest/v1/studio_projects?select=id,name,track_count,duration_seconds`, {
    headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${session.access_token}` },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { id: string; name: string; track_count: number; duration_seconds: number }[]
}

async function openMixer(page: Page) {
  await page.goto('/app/studio')
  await expect(page.getByRole('heading', { level: 1, name: 'My Music Studio' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Mixer Tracks' })).toBeVisible()
}

/** A new account signed in on `page`, its profile showing it, then the studio: returns its e-mail and password. */
async function signedInStudio(page: Page, prefix: string) {
  const email = `${prefix}-${unique()}@cube.test`
  const password = 'correct horse battery'
  await signUpByApi(page, { username: `${prefix}_${unique()}`.slice(0, 20), email, password })
  await page.goto('/app')
  await expect(page.getByTestId('account-email')).toHaveText(email)
  return { email, password }
}

test('saved studio projects are listed in the account and reach another browser; delete removes them server-side', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const origin = baseURL!
  const { email, password } = await signedInStudio(page, 'studio')
  await expect(page.getByTestId('studio-projects')).toContainText('No studio projects yet')

  // Two tracks, the longer one 1.5 s.
  await openMixer(page)
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'first.wav', mimeType: 'audio/wav', buffer: makeWav([tone(330, 1.5, 48000)], 48000) })
  await expect(page.getByRole('listitem', { name: 'first', exact: true })).toBeVisible()
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'second.wav', mimeType: 'audio/wav', buffer: makeWav([tone(550, 0.5, 48000)], 48000) })
  await expect(page.getByRole('listitem', { name: 'second', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Save Project' }).click()
  await expect(toast(page, 'Project saved')).toBeVisible()
  const local = page.getByTestId('project-item').filter({ hasText: 'Project 1' })
  await expect(local).toContainText('2 tracks')
  await expect(local.getByTestId('project-in-account')).toHaveText(/In your account/)
  const session = await apiSession(origin, email, password)
  const rows = await serverProjects(origin, session)
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ name: 'Project 1', track_count: 2 })
  expect(Number(rows[0]!.duration_seconds)).toBeCloseTo(1.5, 2)
  const projectId = rows[0]!.id

  // Rename follows to the server.
  await local.getByRole('button', { name: 'Rename Project 1' }).click()
  await page.getByLabel('Project name').fill('Neon Sketch')
  await page.getByLabel('Project name').press('Enter')
  await expect(toast(page, 'Project renamed')).toBeVisible()
  await expect.poll(async () => (await serverProjects(origin, session)).map((r) => r.name)).toEqual(['Neon Sketch'])

  // The profile lists it (client-side navigation, then a full reload: both read the server).
  await page.getByRole('link', { name: 'Profile', exact: true }).click()
  const section = page.getByTestId('studio-projects')
  await expect(section.getByTestId('profile-studio-project')).toHaveCount(1)
  await expect(section.getByTestId('profile-studio-project')).toContainText('Neon Sketch')
  await expect(section.getByTestId('profile-studio-project')).toContainText('2 tracks')
  await page.reload()
  await expect(page.getByTestId('studio-projects').getByTestId('profile-studio-project')).toContainText('Neon Sketch2 tracks')

  // A fresh browser context (no IndexedDB of the first) logged in as the same user.
  const other = await browser.newContext()
  try {
    const page2 = await other.newPage()
    await page2.goto('/app/studio')
    await logIn(page2, email, password)
    await expect(page2.getByTestId('account-email')).toHaveText(email)
    const remote = page2.getByTestId('remote-project-item').filter({ hasText: 'Neon Sketch' })
    await expect(remote).toBeVisible()
    await expect(remote).toContainText('2 tracks')
    // Its copy was uploaded in the background (the rename too): it opens here under its new name.
    await expect(remote.getByTestId('remote-project-note')).toContainText('Its full copy (mix and audio) is in your account')
    await expect(remote.getByRole('button', { name: 'Open Neon Sketch' })).toBeEnabled()
    await expect(page2.getByTestId('project-item')).toHaveCount(0)
    await expectNoSeriousA11yViolations(page2)
  } finally {
    await other.close()
  }

  // Delete in the first browser: gone locally and server-side.
  await page.goto('/app/studio')
  const item = page.getByTestId('project-item').filter({ hasText: 'Neon Sketch' })
  await expect(item.getByTestId('project-in-account')).toBeVisible()
  page.once('dialog', (d) => void d.accept())
  await item.getByRole('button', { name: 'Delete Neon Sketch' }).click()
  await expect(toast(page, 'Project deleted')).toBeVisible()
  await expect(page.getByTestId('project-item')).toHaveCount(0)
  await expect.poll(async () => (await serverProjects(origin, session)).map((r) => r.id)).toEqual([])
  expect(projectId).toMatch(/^[0-9a-f-]{36}$/)
})

test('when the server cannot be reached the project is saved in this browser and reaches the account later, even after a reload', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const { email, password } = await signedInStudio(page, 'offline')
  await openMixer(page)
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'solo.wav', mimeType: 'audio/wav', buffer: makeWav([tone(440, 0.5, 48000)], 48000) })
  await expect(page.getByRole('listitem', { name: 'solo', exact: true })).toBeVisible()
  await page.route('**/rest/v1/studio_projects**', (route) => route.abort('connectionrefused'))
  await page.getByRole('button', { name: 'Save Project' }).click()
  await expect(toast(page, 'Project saved')).toBeVisible()
  await expect(toast(page, 'Project not updated in your account')).toContainText('Your project is safe in this browser')
  const item = page.getByTestId('project-item').filter({ hasText: 'Project 1' })
  await expect(item).toContainText('1 track')
  await expect(item.getByTestId('project-in-account')).toHaveCount(0)
  await expect(item.getByTestId('project-account-status')).toHaveText(/Waiting for connection/)
  const session = await apiSession(baseURL!, email, password)
  expect(await serverProjects(baseURL!, session)).toEqual([])

  // Back online: the waiting save is sent without the user doing anything.
  await page.unroute('**/rest/v1/studio_projects**')
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await expect(toast(page, 'Account projects updated')).toBeVisible()
  await expect(item.getByTestId('project-in-account')).toBeVisible()
  await expect(item.getByTestId('project-account-status')).toHaveText(/Saved to your account \d{1,2}:\d{2}/)
  await expect.poll(async () => (await serverProjects(baseURL!, session)).map((r) => r.name)).toEqual(['Project 1'])

  // A rename while unreachable waits in this browser across a reload, then reaches the account.
  await page.route('**/rest/v1/studio_projects**', (route) => route.abort('connectionrefused'))
  await item.getByRole('button', { name: 'Rename Project 1' }).click()
  await page.getByLabel('Project name').fill('Offline Idea')
  await page.getByLabel('Project name').press('Enter')
  await expect(toast(page, 'Project renamed')).toBeVisible()
  await expect(toast(page, 'Project not updated in your account')).toBeVisible()
  await page.unroute('**/rest/v1/studio_projects**')
  await page.reload()
  await expect.poll(async () => (await serverProjects(baseURL!, session)).map((r) => r.name)).toEqual(['Offline Idea'])
  // Nothing was lost locally either: it reopens from this browser.
  await page.getByRole('button', { name: 'Open Offline Idea' }).click()
  await expect(toast(page, 'Project opened')).toBeVisible()
  await expect(page.getByRole('listitem', { name: 'solo', exact: true })).toBeVisible()
  // The renamed project's copy follows too, and then nothing is left waiting.
  await expect(page.getByTestId('project-item').getByTestId('project-account-status')).toHaveText(/Saved to your account/)
  await expect.poll(() => page.evaluate(() => localStorage.getItem('cube-studio-project-outbox'))).toBeNull()
})

/**
 * A track's decoded audio in the open mixer, through the studio's read-only test hook: its sample
 * rate and, per channel, the length and a SHA-256 of the raw 32-bit samples (equal: bit for bit).
 */
async function trackAudio(page: Page, name: string) {
  return page.evaluate(async (n) => {
    const hook = (window as unknown as { __cubeStudio: { trackAudio(n: string): { sampleRate: number; channels: Float32Array[] } | null } })
      .__cubeStudio
    const a = hook.trackAudio(n)
    if (!a) return null
    const sha256 = async (c: Float32Array) =>
      Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', c.slice().buffer)), (x) => x.toString(16).padStart(2, '0')).join('')
    return {
      sampleRate: a.sampleRate,
      channels: await Promise.all(a.channels.map(async (c) => ({ length: c.length, sha256: await sha256(c) }))),
    }
  }, name)
}

/** A track's decoded length in seconds and RMS level, measured from the same hook. */
async function trackLevel(page: Page, name: string) {
  return page.evaluate((n) => {
    const a = (
      window as unknown as { __cubeStudio: { trackAudio(n: string): { sampleRate: number; channels: Float32Array[] } | null } }
    ).__cubeStudio.trackAudio(n)
    if (!a) return null
    const c = a.channels[0]!
    let sum = 0
    for (const x of c) sum += x * x
    return { seconds: c.length / a.sampleRate, rms: Math.sqrt(sum / c.length) }
  }, name)
}

test('a project saved here opens in another browser of the account with its mix and audio, no upload button pressed', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const origin = baseURL!
  const { email, password } = await signedInStudio(page, 'copy')
  await openMixer(page)
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'left.wav', mimeType: 'audio/wav', buffer: makeWav([tone(330, 1.2, 44100), tone(440, 1.2, 44100)], 44100) })
  await expect(page.getByRole('listitem', { name: 'left', exact: true })).toBeVisible()
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'right.wav', mimeType: 'audio/wav', buffer: makeWav([tone(660, 0.7, 48000)], 48000) })
  await expect(page.getByRole('listitem', { name: 'right', exact: true })).toBeVisible()
  // A control away from its default, so the mix itself is seen to travel, not just the audio.
  const volume = page.getByRole('slider', { name: 'right Volume', exact: true })
  await volume.focus()
  await volume.press('Home')
  await volume.press('PageUp')
  await volume.press('PageUp')
  await expect(volume).toHaveAttribute('aria-valuenow', '20')

  // Storage out of reach at first: the save is kept here, the status line says it waits.
  await page.route('**/storage/v1/**', (route) => route.abort('connectionrefused'))
  await page.getByRole('button', { name: 'Save Project' }).click()
  await expect(toast(page, 'Project saved')).toBeVisible()
  const item = page.getByTestId('project-item').filter({ hasText: 'Project 1' })
  const status = item.getByTestId('project-account-status')
  await expect(item.getByTestId('project-in-account')).toBeVisible()
  await expect(status).toHaveText(/Waiting for connection/)
  await expect(toast(page, 'Project not updated in your account')).toContainText('Your project is safe in this browser')
  // No upload button anywhere: the account copy is the studio's job.
  await expect(page.getByRole('button', { name: /upload .* to your account/i })).toHaveCount(0)
  const original = { left: (await trackAudio(page, 'left'))!, right: (await trackAudio(page, 'right'))! }

  // Back online: the upload goes on by itself.
  await page.unroute('**/storage/v1/**')
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await expect(status).toHaveText(/Saved to your account \d{1,2}:\d{2}/, { timeout: 20_000 })

  // Another browser (no IndexedDB of the first), same user: the copy opens there.
  const other = await browser.newContext({ baseURL: origin })
  try {
    const page2 = await other.newPage()
    await page2.goto('/app/studio')
    await logIn(page2, email, password)
    await expect(page2.getByTestId('account-email')).toHaveText(email)
    const remote = page2.getByTestId('remote-project-item').filter({ hasText: 'Project 1' })
    await expect(remote.getByTestId('remote-project-note')).toContainText('Its full copy (mix and audio) is in your account')
    await remote.getByRole('button', { name: 'Open Project 1' }).click()
    await expect(toast(page2, 'Project opened')).toContainText('downloaded from your account')
    await expect(page2.getByRole('listitem', { name: 'left', exact: true })).toBeVisible()
    await expect(page2.getByRole('slider', { name: 'right Volume', exact: true })).toHaveAttribute('aria-valuenow', '20')
    const copied = { left: (await trackAudio(page2, 'left'))!, right: (await trackAudio(page2, 'right'))! }
    expect(copied.left.sampleRate).toBe(original.left.sampleRate)
    expect(copied.right.sampleRate).toBe(original.right.sampleRate)
    expect(copied.left.channels).toEqual(original.left.channels)
    expect(copied.right.channels).toEqual(original.right.channels)
    // The numbers themselves: 1.2 s and 0.7 s of a 0.5 sine, whose RMS is 0.5 / √2.
    const left = (await trackLevel(page2, 'left'))!
    const right = (await trackLevel(page2, 'right'))!
    expect(left.seconds).toBeCloseTo(1.2, 3)
    expect(right.seconds).toBeCloseTo(0.7, 3)
    expect(left.rms).toBeCloseTo(0.5 / Math.SQRT2, 2)
    expect(right.rms).toBeCloseTo(0.5 / Math.SQRT2, 2)
    // Now stored in this browser too, and current.
    const local2 = page2.getByTestId('project-item').filter({ hasText: 'Project 1' })
    await expect(local2.getByTestId('project-account-status')).toHaveText(/Saved to your account/)
    await expect(page2.getByTestId('remote-project-item')).toHaveCount(0)
    await expectNoSeriousA11yViolations(page2)

    // A later edit in the first browser, not even saved by hand: the open project is saved by
    // itself after a pause, and its copy follows to the account.
    await volume.focus()
    await volume.press('PageUp')
    await expect(volume).toHaveAttribute('aria-valuenow', '30')
    await expect(status).toHaveText(/Saving to your account|Uploading/, { timeout: 10_000 })
    await expect(status).toHaveText(/Saved to your account/, { timeout: 20_000 })
    const session = await apiSession(origin, email, password)
    const rows = await serverProjects(origin, session)
    const auth = { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${session.access_token}` }
    const manifest = (await (
      await fetch(`${origin}/storage/v1/object/studio-audio/${session.user.id}/${rows[0]!.id}/project.json`, { headers: auth })
    ).json()) as { state: { tracks: { name: string; volume: number }[] } }
    expect(manifest.state.tracks.find((t) => t.name === 'right')!.volume).toBe(30)
    // The second browser, reloaded, sees that its own copy is older and brings the edit in.
    await page2.reload()
    const stale = page2.getByTestId('project-item').filter({ hasText: 'Project 1' })
    await expect(stale.getByTestId('project-account-status')).toHaveText(/Your account has a newer version/)
    await stale.getByRole('button', { name: 'Get the newer version of Project 1 from your account' }).click()
    await expect(toast(page2, 'Project opened')).toContainText('newer version')
    await expect(page2.getByRole('slider', { name: 'right Volume', exact: true })).toHaveAttribute('aria-valuenow', '30')
    await expect(stale.getByTestId('project-account-status')).toHaveText(/Saved to your account/)
    expect((await trackLevel(page2, 'left'))!.seconds).toBeCloseTo(1.2, 3)
  } finally {
    await other.close()
  }

  // Deleting the project removes its copy from the account's storage as well.
  const session = await apiSession(origin, email, password)
  const rows = await serverProjects(origin, session)
  const { access_token, user } = session
  const manifestUrl = `${origin}/storage/v1/object/studio-audio/${user.id}/${rows[0]!.id}/project.json`
  const auth = { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${access_token}` }
  expect((await fetch(manifestUrl, { headers: auth })).status).toBe(200)
  // The Library's storage figure counts the copy (two WAVs of 32-bit float: over 500 KB)...
  const usage = page.getByTestId('account-storage-usage')
  await page.getByRole('link', { name: 'Library' }).first().click()
  await expect(usage).toContainText(/^\d+(\.\d)? KB of 500 MB used/)
  const usedKb = Number((await usage.innerText()).split(' ')[0])
  expect(usedKb).toBeGreaterThan(500)
  await page.getByRole('link', { name: 'Live Mixer' }).first().click()
  page.once('dialog', (d) => void d.accept())
  await item.getByRole('button', { name: 'Delete Project 1' }).click()
  await expect(toast(page, 'Project deleted')).toBeVisible()
  await expect.poll(async () => (await fetch(manifestUrl, { headers: auth })).status).not.toBe(200)
  // ...and goes down to nothing once it is deleted (no reload: the figure is read again).
  await page.getByRole('link', { name: 'Library' }).first().click()
  await expect(usage).toContainText(/^0 B of 500 MB used/)
})

test('two browsers edit one project before either sees the other: the second upload keeps both versions', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const origin = baseURL!
  const { email, password } = await signedInStudio(page, 'both')
  await openMixer(page)
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'right.wav', mimeType: 'audio/wav', buffer: makeWav([tone(660, 0.5, 48000)], 48000) })
  const volume = page.getByRole('slider', { name: 'right Volume', exact: true })
  await volume.focus()
  await volume.press('Home')
  await volume.press('PageUp')
  await page.getByRole('button', { name: 'Save Project' }).click()
  const status = page.getByTestId('project-item').filter({ hasText: 'Project 1' }).getByTestId('project-account-status')
  await expect(status).toHaveText(/Saved to your account/, { timeout: 20_000 })
  const session = await apiSession(origin, email, password)
  const [row] = await serverProjects(origin, session)
  const auth = { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${session.access_token}` }
  const volumeIn = async (id: string) => {
    const res = await fetch(`${origin}/storage/v1/object/studio-audio/${session.user.id}/${id}/project.json`, { headers: auth })
    if (!res.ok) return null
    return ((await res.json()) as { state: { tracks: { name: string; volume: number }[] } }).state.tracks[0]!.volume
  }

  const other = await browser.newContext({ baseURL: origin })
  try {
    const page2 = await other.newPage()
    await page2.goto('/app/studio')
    await logIn(page2, email, password)
    await page2.getByRole('button', { name: 'Open Project 1' }).click()
    await expect(toast(page2, 'Project opened')).toBeVisible()
    const volume2 = page2.getByRole('slider', { name: 'right Volume', exact: true })
    await expect(volume2).toHaveAttribute('aria-valuenow', '10')

    // The first browser's edit reaches the account (saved by itself after a pause)...
    await volume.focus()
    await volume.press('PageUp')
    await expect.poll(() => volumeIn(row!.id), { timeout: 20_000 }).toBe(20)
    // ...and the second, which never saw it, edits its own version: that upload does not replace it.
    await volume2.focus()
    await volume2.press('PageDown')
    await expect(toast(page2, 'Both versions kept')).toContainText('"Project 1 (conflicting copy)"', { timeout: 20_000 })
    await expect
      .poll(async () => (await serverProjects(origin, session)).map((r) => r.name).sort(), { timeout: 20_000 })
      .toEqual(['Project 1', 'Project 1 (conflicting copy)'])
    const copy = (await serverProjects(origin, session)).find((r) => r.name !== 'Project 1')!
    await expect.poll(() => volumeIn(copy.id), { timeout: 20_000 }).toBe(0)
    expect(await volumeIn(row!.id), "the first browser's version is not replaced").toBe(20)
    // The second browser has both: its own still open, as the copy; the account's under the project's name.
    await expect(page2.getByTestId('project-item').filter({ hasText: 'Project 1 (conflicting copy)' })).toBeVisible()
    await expect(volume2).toHaveAttribute('aria-valuenow', '0')
    await page2.getByRole('button', { name: 'Open Project 1', exact: true }).click()
    await expect(volume2).toHaveAttribute('aria-valuenow', '20')
  } finally {
    await other.close()
  }
})

test('removing a project from the account in another browser removes its row and its copy, not the local project', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const origin = baseURL!
  const { email, password } = await signedInStudio(page, 'remove')
  await openMixer(page)
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'keep.wav', mimeType: 'audio/wav', buffer: makeWav([tone(500, 0.5, 48000)], 48000) })
  await expect(page.getByRole('listitem', { name: 'keep', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Save Project' }).click()
  const item = page.getByTestId('project-item').filter({ hasText: 'Project 1' })
  await expect(item.getByTestId('project-account-status')).toHaveText(/Saved to your account/)
  const session = await apiSession(origin, email, password)
  const [row] = await serverProjects(origin, session)
  const { access_token, user } = session
  const manifestUrl = `${origin}/storage/v1/object/studio-audio/${user.id}/${row!.id}/project.json`
  const auth = { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${access_token}` }
  expect((await fetch(manifestUrl, { headers: auth })).status).toBe(200)

  const other = await browser.newContext({ baseURL: origin })
  try {
    const page2 = await other.newPage()
    await page2.goto('/app/studio')
    await logIn(page2, email, password)
    const remote = page2.getByTestId('remote-project-item').filter({ hasText: 'Project 1' })
    await expect(remote).toBeVisible()
    page2.once('dialog', (d) => void d.accept())
    await remote.getByRole('button', { name: 'Remove Project 1 from your account' }).click()
    await expect(toast(page2, 'Project removed from your account')).toBeVisible()
    await expect(page2.getByTestId('remote-project-item')).toHaveCount(0)
  } finally {
    await other.close()
  }
  expect(await serverProjects(origin, session)).toEqual([])
  await expect.poll(async () => (await fetch(manifestUrl, { headers: auth })).status).not.toBe(200)
  // The first browser still has the project and its audio.
  await page.reload()
  await page.getByRole('button', { name: 'Open Project 1' }).click()
  await expect(toast(page, 'Project opened')).toBeVisible()
  await expect(page.getByRole('listitem', { name: 'keep', exact: true })).toBeVisible()
})
