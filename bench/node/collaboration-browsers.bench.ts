/**
 * Live collaboration between real browsers: three Chromium pages of the production build (`dist/`,
 * served with the embedded backend as `npm start` serves it, on a throwaway data folder) in one
 * live project, the owner and two editors. The owner turns a knob with the keyboard; the figure is
 * the time from that key press in the owner's page to the knob showing the new value in each
 * editor's page (the attribute the slider renders, seen by a MutationObserver there): the whole path
 * of a remote edit, the owner's store and document, Realtime broadcast, the editor's document, store
 * and React render. Both ends read Date.now(), the machine's one clock.
 *
 * Needs `npm run build` first. Run: npm run bench -- collaboration-browsers
 *   (COLLAB_BROWSER_EDITS: how many edits, 60; COLLAB_BROWSER_DELAY_MS: a network delay each way
 *   between every page and the server, through delay-proxy.ts, 0 by default: loopback)
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from '@playwright/test'
import { launchOptions } from '../../tests/e2e/support/browser.ts'
import { OwnServer } from '../../tests/e2e/support/own-server.ts'
import { anonKeyFor } from '../../tests/e2e/support/anon-key.ts'
import { sessionStorageKey } from '../../tests/e2e/support/session.ts'
import { makeWav, tone } from '../../tests/e2e/fixtures/audio.ts'
import type { BenchResult } from '../types.ts'
import { freePort } from '../../tests/backend/support/free-port.ts'
import { startDelayProxy } from './delay-proxy.ts'

const EDITS = Number(process.env.COLLAB_BROWSER_EDITS ?? 60)
const DELAY_MS = Number(process.env.COLLAB_BROWSER_DELAY_MS ?? 0)
const KNOB = 'groove Volume'
const WAIT_MS = 30_000

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}

/** A new account signed in in a browser context of its own (the session seeded as the app keeps it). */
async function creator(browser: Browser, origin: string, anonKey: string, tag: string) {
  const username = `${tag}_${Date.now().toString(36)}`.slice(0, 20)
  const res = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${username}@cube.test`, password: 'bench-password-1', data: { username } }),
  })
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`)
  const session = (await res.json()) as { access_token: string }
  const context = await browser.newContext({ baseURL: origin })
  await context.addInitScript(({ key, value }) => localStorage.setItem(key, value), {
    key: sessionStorageKey(origin),
    value: JSON.stringify(session),
  })
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT_MS)
  await page.goto('/app/studio')
  await page.getByRole('heading', { name: 'Mixer Tracks' }).waitFor()
  return { page, username }
}

/** The owner's project: one track, saved to the account, live, each editor invited by username. */
async function ownerGoesLive(page: Page, editors: string[]) {
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'groove.wav', mimeType: 'audio/wav', buffer: makeWav([tone(330, 1, 48000)], 48000) })
  await page.getByRole('listitem', { name: 'groove', exact: true }).waitFor()
  await page.getByRole('button', { name: 'Save Project' }).click()
  await page.getByTestId('project-in-account').first().waitFor()
  const live = page.getByTestId('live-session')
  await live.getByRole('button', { name: /^Go live with/ }).click()
  await live.getByRole('status').filter({ hasText: 'as owner.' }).waitFor()
  for (const name of editors) {
    await live.getByLabel('Username to invite').fill(name)
    await live.getByLabel('Role', { exact: true }).selectOption('editor')
    await live.getByRole('button', { name: 'Invite', exact: true }).click()
    await live
      .getByRole('list', { name: 'Collaborators' })
      .filter({ hasText: `${name} (editor)` })
      .waitFor()
  }
}

async function editorJoins(page: Page) {
  // The invitation arrives with the list of projects shared with this account: read it again.
  await page.reload()
  const panel = page.getByTestId('live-session')
  await panel.getByRole('button', { name: 'Join live' }).click()
  await panel.getByRole('status').filter({ hasText: 'as editor.' }).waitFor()
  await page.getByRole('listitem', { name: 'groove', exact: true }).waitFor()
}

/** Records when the knob shows a new value in this page (Date.now(), ms). */
const watchKnob = (page: Page) =>
  page.getByRole('slider', { name: KNOB }).evaluate((el) => {
    const seen: number[] = []
    ;(window as unknown as { __knobSeen: number[] }).__knobSeen = seen
    new MutationObserver(() => seen.push(Date.now())).observe(el, { attributes: true, attributeFilter: ['aria-valuenow'] })
  })

const seenCount = (page: Page) => page.evaluate(() => (window as unknown as { __knobSeen: number[] }).__knobSeen.length)
const seenTimes = (page: Page) => page.evaluate(() => (window as unknown as { __knobSeen: number[] }).__knobSeen)

export async function run(): Promise<BenchResult[]> {
  if (!existsSync('dist/index.html')) throw new Error('The bench serves the production build: run npm run build first.')
  const dataDir = mkdtempSync(join(tmpdir(), 'cube-collab-browsers-'))
  const port = await freePort()
  const server = new OwnServer(port, dataDir)
  await server.start({ LOCAL_DATA_RESET: '1' })
  const proxy = DELAY_MS > 0 ? await startDelayProxy(port, DELAY_MS) : undefined
  const origin = proxy?.origin ?? server.origin
  const browser = await chromium.launch(launchOptions())
  try {
    const anonKey = await anonKeyFor(dataDir)
    const owner = await creator(browser, origin, anonKey, 'bown')
    const editors = [await creator(browser, origin, anonKey, 'bed1'), await creator(browser, origin, anonKey, 'bed2')]
    await ownerGoesLive(
      owner.page,
      editors.map((e) => e.username),
    )
    for (const e of editors) await editorJoins(e.page)
    for (const e of editors) await watchKnob(e.page)

    const knob = owner.page.getByRole('slider', { name: KNOB })
    await knob.focus()
    await owner.page.evaluate(() => {
      const sent: number[] = []
      ;(window as unknown as { __keySent: number[] }).__keySent = sent
      window.addEventListener('keydown', () => sent.push(Date.now()), true)
    })
    for (let i = 0; i < EDITS; i++) {
      // Down and up in turn: every press changes the value, and it stays in range.
      await owner.page.keyboard.press(i % 2 === 0 ? 'ArrowLeft' : 'ArrowRight')
      const end = Date.now() + WAIT_MS
      for (const e of editors)
        while ((await seenCount(e.page)) < i + 1) {
          if (Date.now() > end) throw new Error(`edit ${i + 1} did not reach ${e.username} within ${WAIT_MS / 1000} s`)
          await new Promise((r) => setTimeout(r, 2))
        }
      // Edits a creator makes by hand, not a flood: one every 100 ms at most.
      await new Promise((r) => setTimeout(r, 100))
    }
    const sent = await owner.page.evaluate(() => (window as unknown as { __keySent: number[] }).__keySent)
    const delays: number[] = []
    for (const e of editors) {
      const seen = await seenTimes(e.page)
      for (let i = 0; i < EDITS; i++) delays.push(seen[i]! - sent[i]!)
    }
    // An edit crosses the network twice (owner to server, server to editor): none can be faster.
    if (DELAY_MS > 0 && Math.min(...delays) < 2 * DELAY_MS) throw new Error(`an edit arrived in ${Math.min(...delays)} ms: not delayed`)
    const detail =
      `${EDITS} knob edits by the owner, each seen in 2 editors' pages (${delays.length} deliveries), ` +
      '3 Chromium pages of the production build on the local backend' +
      (DELAY_MS > 0 ? `, ${DELAY_MS} ms added each way between every page and the server` : ', loopback')
    return [
      { name: 'remote edit, key press to the other browser showing it, p50', value: quantile(delays, 0.5), unit: 'ms', detail },
      {
        name: 'remote edit, key press to the other browser showing it, p95',
        value: quantile(delays, 0.95),
        unit: 'ms',
        detail: DELAY_MS > 0 ? `target < 100 ms + the ${2 * DELAY_MS} ms the edit spends on the network` : 'target < 100 ms',
      },
      { name: 'remote edit, key press to the other browser showing it, max', value: Math.max(...delays), unit: 'ms' },
    ]
  } finally {
    await browser.close()
    await proxy?.close()
    await server.dispose()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(r.name, r.value.toFixed(1), r.unit, r.detail ?? '')
  process.exit(0)
}
