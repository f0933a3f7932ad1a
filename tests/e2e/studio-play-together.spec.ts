import { type Browser, type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { signUpByApi } from './support/session.ts'
import { addAudioTrack, goLive, inviteByUsername, openMixer, saveProject } from './support/studio.ts'
import { tone } from './fixtures/audio.ts'

// "Play together" between three browsers in one live project through the real local backend (its
// server-clock function and Realtime room): the owner, an editor whose clock (as the app reads it)
// runs 7 s ahead, and a viewer on headphones with 200 ms of output latency. All three tick Play
// together; the owner's Play is heard in all three at one position at one instant, measured through
// the studio's debug hook at one Date.now() instant (the machine's clock, the same in every page);
// the editor's Pause stops all three at one position, and the owner's seek moves every playhead
// there; the viewer's own Play stays in the viewer's studio (the room does not let viewers send).

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`
const SKEW_MS = 7_000
const HEADPHONES_S = 0.2

/**
 * A creator in a browser of their own; `skewMs` moves the clock the app measures by (timeOrigin),
 * `outputLatency` is what the audio device reports (as Bluetooth headphones do, 200 ms).
 */
async function creator(browser: Browser, prefix: string, { skewMs = 0, outputLatency = 0 } = {}) {
  const context = await browser.newContext()
  if (skewMs)
    await context.addInitScript((skew) => {
      const skewed = performance.timeOrigin + skew
      Object.defineProperty(performance, 'timeOrigin', { get: () => skewed })
    }, skewMs)
  if (outputLatency)
    await context.addInitScript((latency) => {
      Object.defineProperty(AudioContext.prototype, 'outputLatency', { get: () => latency })
    }, outputLatency)
  const page = await context.newPage()
  const user = await signUpByApi(page, { username: `${prefix}_${unique()}`.slice(0, 20) })
  return { page, user }
}

const transport = (p: Page) => p.evaluate(() => window.__cubeStudio!.transport())
const positionsAt = (pages: Page[], wallMs: number) =>
  Promise.all(pages.map((p) => p.evaluate((at) => window.__cubeStudio!.positionAt(at), wallMs)))

test('play together: three studios, one clock 7 s off, start at one position at one instant and pause together', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  await signUpByApi(page, { username: `pto_${unique()}`.slice(0, 20) })
  const editor = await creator(browser, 'pte', { skewMs: SKEW_MS })
  const viewer = await creator(browser, 'ptv', { outputLatency: HEADPHONES_S })
  // The editor's app clock really is off: the offset the server clock must correct.
  const skew = await editor.page.evaluate(() => performance.timeOrigin + performance.now() - Date.now())
  expect(Math.abs(skew - SKEW_MS)).toBeLessThan(50)

  await openMixer(page)
  // Long enough that a loaded machine never reaches its end before the shared Pause (the mix then stops at 0).
  await addAudioTrack(page, 'groove', [tone(220, 20, 16000)], 16000)
  await saveProject(page)
  const live = await goLive(page)
  await inviteByUsername(live, editor.user.username, 'editor')
  await inviteByUsername(live, viewer.user.username, 'viewer')
  const frames = (p: Page) => p.evaluate(() => window.__cubeStudio?.trackAudio('groove')?.channels[0]?.length ?? 0)
  const ownFrames = await frames(page)
  expect(ownFrames).toBeGreaterThan(19 * 44100)
  for (const [who, role] of [
    [editor, 'editor'],
    [viewer, 'viewer'],
  ] as const) {
    await openMixer(who.page)
    const panel = who.page.getByTestId('live-session')
    await panel.getByRole('button', { name: 'Join live' }).click()
    await expect(panel.getByRole('status')).toContainText(`as ${role}.`)
    // The track and its audio are here before anyone plays.
    await expect.poll(() => frames(who.page), { timeout: 15_000 }).toBe(ownFrames)
  }

  const pages = [page, editor.page, viewer.page]
  for (const p of pages) {
    await p.getByTestId('play-together').getByLabel('Play together').check()
    await expect(p.getByTestId('play-together-clock')).toHaveText(/^clock within \d+ ms$/)
  }

  // The viewer's device latency is read (the audio-context wrapper alone does not give it).
  expect((await transport(viewer.page)).latency).toBeGreaterThanOrEqual(HEADPHONES_S)
  expect((await transport(viewer.page)).latency).toBeLessThan(HEADPHONES_S + 0.05)

  await page.getByRole('button', { name: 'Play mix' }).click()
  for (const p of pages) await expect.poll(async () => (await transport(p)).playing).toBe(true)
  await page.waitForTimeout(700)
  // One instant a little ahead, so every page is asked before it: where each studio is heard then.
  const instant = Date.now() + 200
  const [own, ed, view] = (await positionsAt(pages, instant)) as number[]
  const apartMs = Math.max(Math.abs(own! - ed!), Math.abs(own! - view!), Math.abs(ed! - view!)) * 1000
  // A cross-check that does not go through the pages' clock mapping: the transports' own positions
  // (currentTime, which moves a block at a time) against Date.now(), averaged over 20 readings each.
  const lead = async (p: Page) => {
    let sum = 0
    for (let i = 0; i < 20; i++) {
      const t = await transport(p)
      // Where it is heard: the viewer's headphones lag their transport by their latency.
      sum += t.position - t.latency - t.wallMs / 1000
    }
    return sum / 20
  }
  const leads = await Promise.all(pages.map(lead))
  const rawApartMs = (Math.max(...leads) - Math.min(...leads)) * 1000
  console.log(
    `play together: at one instant the owner is at ${own!.toFixed(4)} s, the editor (clock ${SKEW_MS} ms off) at ${ed!.toFixed(4)} s, ` +
      `the viewer at ${view!.toFixed(4)} s: ${apartMs.toFixed(1)} ms apart at most; ` +
      `by the transports' own positions (20 readings each) ${rawApartMs.toFixed(1)} ms`,
  )
  expect(rawApartMs).toBeLessThan(30)
  expect(own).toBeGreaterThan(0.5)
  expect(own).toBeLessThan(3)
  expect(apartMs).toBeLessThan(30)
  // Still together a second later (the same rate everywhere).
  await page.waitForTimeout(1_000)
  const later = (await positionsAt(pages, Date.now() + 200)) as number[]
  console.log(`a second later: ${later.map((x) => x.toFixed(4)).join(' ')}`)
  expect((Math.max(...later) - Math.min(...later)) * 1000).toBeLessThan(30)
  expect(later[0]! - own!).toBeGreaterThan(0.9)

  // The editor's Pause stops everyone at one position.
  await editor.page.getByRole('button', { name: 'Pause mix' }).click()
  for (const p of pages) await expect.poll(async () => (await transport(p)).playing).toBe(false)
  const paused = await Promise.all(pages.map(async (p) => (await transport(p)).position))
  expect(Math.max(...paused) - Math.min(...paused)).toBeLessThan(0.001)
  expect(paused[0]).toBeGreaterThan(later[0]!)
  for (const p of pages) await expect(p.getByRole('button', { name: 'Play mix' })).toBeVisible()

  // The owner's seek moves every playhead there (10 steps of 0.1 s back from the pause).
  await page.getByRole('slider', { name: 'Mix position' }).press('PageDown')
  const sought = Math.round((paused[0]! - 1) * 10) / 10
  for (const p of pages) await expect.poll(async () => (await transport(p)).position).toBeCloseTo(sought, 3)

  // The viewer's own Play stays in the viewer's studio.
  await viewer.page.getByRole('button', { name: 'Play mix' }).click()
  await expect.poll(async () => (await transport(viewer.page)).playing).toBe(true)
  await page.waitForTimeout(1_000)
  expect((await transport(page)).playing).toBe(false)
  expect((await transport(editor.page)).playing).toBe(false)
})
