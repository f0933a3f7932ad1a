import { type BrowserContext, type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { signUpByApi } from './support/session.ts'

// docs/security.md item 2, with Chromium as the victim: an attacker with an ordinary account tries to
// store a page that reads the victim's session from localStorage, and the victim opens it on the
// app's origin; and the app's own pages carry a CSP under which an injected inline script does not
// run (the violation is reported) while the app keeps working.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
const PAYLOAD =
  '<!doctype html><title>x</title><script>document.title = "PWNED"; fetch("/pwned?" + ' +
  'encodeURIComponent(JSON.stringify(localStorage)))</script>'
/** A real PNG signature with the attacker's page right behind it (a polyglot). */
const POLYGLOT = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.from(PAYLOAD)]

async function signedIn(page: Page, tag: string) {
  const name = `${tag}${unique()}`.slice(0, 20)
  await signUpByApi(page, { username: name, email: `${name}@example.com`, password: 'xss-pass-1' })
  await page.goto('/app/home')
  await expect(page.getByTestId('profile-username')).toHaveText(name)
}

/** Counts every request of the context that tries to carry a session away. */
function exfiltrations(context: BrowserContext) {
  const seen: string[] = []
  context.on('request', (r) => {
    if (r.url().includes('/pwned')) seen.push(r.url())
  })
  return seen
}

test('a stored object never runs script on the app’s origin: refused uploads, and a PNG polyglot served as an image with nosniff', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const attackerContext = await browser.newContext()
  const attacker = await attackerContext.newPage()
  await signedIn(attacker, 'mal')
  const attempts = await attacker.evaluate(
    async ({ payload, polyglot }) => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
      const session = JSON.parse(localStorage.getItem(key)!) as { access_token: string; user: { id: string } }
      // A public bucket (served to anyone by URL, as hosted Storage serves public buckets): the place
      // an attacker would plant a page for a victim to open.
      const path = `published-covers/${session.user.id}/cover.png`
      const put = async (type: string, body: BodyInit) => {
        const r = await fetch(`/storage/v1/object/${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${session.access_token}`, 'Content-Type': type, 'x-upsert': 'true' },
          body,
        })
        return { status: r.status, body: (await r.json()) as { statusCode?: string; message?: string } }
      }
      return {
        smuggled: await put('image/png;, text/html', payload),
        disguised: await put('image/png', payload),
        polyglot: await put('image/png', new Uint8Array(polyglot)),
        url: `/storage/v1/object/public/${path}`,
      }
    },
    { payload: PAYLOAD, polyglot: POLYGLOT },
  )
  expect(attempts.smuggled.body).toMatchObject({
    statusCode: '415',
    message: expect.stringContaining('is not supported: it must be exactly one media type'),
  })
  expect(attempts.disguised.body).toMatchObject({
    statusCode: '415',
    message: expect.stringContaining("the file's bytes are not image/png"),
  })
  expect(attempts.polyglot.status).toBe(200)
  await attackerContext.close()

  const victimContext = await browser.newContext()
  const stolen = exfiltrations(victimContext)
  const victim = await victimContext.newPage()
  await signedIn(victim, 'vic')
  const response = await victim.goto(attempts.url)
  expect(response!.headers()['content-type']).toBe('image/png')
  expect(response!.headers()['x-content-type-options']).toBe('nosniff')
  await victim.waitForTimeout(500)
  expect(await victim.title()).not.toBe('PWNED')
  expect(await victim.evaluate(() => document.querySelector('script'))).toBeNull()
  expect(stolen).toEqual([])
  await victimContext.close()
})

test('the app’s pages carry a CSP that blocks injected inline script and handlers (reported as violations) while the app works', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: { directive: string; blocked: string }[] }
    w.__violations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }),
    )
  })
  const response = await page.goto('/app/home')
  const csp = response!.headers()['content-security-policy'] ?? ''
  const scriptSrc = csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('script-src '))
  // Our own files, blob: URLs made from them (the worklet loader) and WebAssembly compilation (the instruments'
  // Vorbis decoder); never 'unsafe-inline' or 'unsafe-eval'.
  expect(scriptSrc).toBe("script-src 'self' blob: 'wasm-unsafe-eval'")
  expect(csp).toContain("object-src 'none'")
  expect(csp).toContain("frame-ancestors 'none'")

  // The app works under it: sign-up (REST, Auth), the profile page, the wallet page with its QR code.
  await signedIn(page, 'csp')
  await page.goto('/app/wallet')
  await expect(page.getByRole('heading').first()).toBeVisible()
  const violations = () =>
    page.evaluate(() => (window as unknown as { __violations: { directive: string; blocked: string }[] }).__violations)
  expect(await violations()).toEqual([])

  // An injected inline script, an inline handler and a javascript: URL: none runs, each is reported.
  await page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.__injected = "script"'
    document.body.append(script)
    const holder = document.createElement('div')
    holder.innerHTML = '<img src="/favicon.svg" onload="window.__injected = \'handler\'">'
    document.body.append(holder)
  })
  await page.waitForTimeout(500)
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined()
  const reported = await violations()
  expect(reported.map((v) => v.directive)).toEqual(expect.arrayContaining(['script-src-elem', 'script-src-attr']))
  expect(reported.every((v) => v.blocked === 'inline')).toBe(true)
})
