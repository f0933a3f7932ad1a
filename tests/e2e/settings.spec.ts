import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import jsQR from 'jsqr'
import { generate } from 'otplib'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { logIn, toast } from './support/auth.ts'
import { USERNAME_MESSAGE } from '../../src/lib/profile-rules.ts'
import { signUpByApi } from './support/session.ts'

// Settings: every tab changes the real account (profile, avatar, preferences, password,
// TOTP two-factor) through the embedded backend, and the changes hold across reloads.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
/** A tiny valid PNG: 2×2, red. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==', 'base64')

async function signedUp(page: Page, password: string) {
  const name = `st${unique()}`.slice(0, 20)
  const email = `${name}@example.com`
  await signUpByApi(page, { username: name, email, password })
  await page.goto('/app/settings')
  await expect(page.getByLabel('Username')).toHaveValue(name)
  return { name, email }
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name }).click()

/** The signed-in user's id and access token, as supabase-js stored them. */
const session = (page: Page) =>
  page.evaluate(() => {
    const raw = localStorage.getItem(Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!)
    const s = JSON.parse(raw!) as { access_token: string; user: { id: string } }
    return { token: s.access_token, id: s.user.id }
  })

test('profile, avatar, appearance and preferences are saved for real and survive a reload', async ({ page, browser }) => {
  await page.goto('/app/settings')
  await expect(page.getByTestId('settings-sign-in')).toBeVisible()
  const { name } = await signedUp(page, 'settings-pass-1')
  const renamed = `${name}_x`

  await test.step('username and bio: bad input gets a message, good input is saved', async () => {
    await page.getByLabel('Username').fill('no spaces please')
    await page.getByRole('button', { name: 'Save profile' }).click()
    // The rule, then the character it refused.
    await expect(page.getByRole('alert')).toHaveText(`${USERNAME_MESSAGE.replace(/\.$/, '')}: a space is not allowed.`)
    await page.getByLabel('Username').fill(renamed)
    await page.getByLabel('Bio').fill('Night drives and neon.')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await expect(toast(page, 'Profile saved')).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('Username')).toHaveValue(renamed)
    await expect(page.getByLabel('Bio')).toHaveValue('Night drives and neon.')
  })

  await test.step('avatar: a non-image is refused, a picture is cropped to 256 px and shown', async () => {
    const input = page.locator('input[type=file]')
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
    await expect(page.getByRole('alert')).toHaveText('An avatar must be a PNG, JPEG or WebP image.')
    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG })
    await expect(toast(page, 'Avatar updated')).toBeVisible()
    const img = page.getByTestId('settings-avatar').locator('img')
    // The avatars bucket is not public (private profiles): the picture is downloaded through the API and shown as a blob.
    await expect(img).toHaveAttribute('src', /^blob:/)
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(256)
    await page.goto('/app/home')
    await expect
      .poll(() =>
        page
          .getByRole('img', { name: /avatar/ })
          .first()
          .evaluate((el: HTMLImageElement) => el.naturalWidth),
      )
      .toBe(256)
    await page.goto(`/user/${renamed}`)
    await expect.poll(() => page.getByTestId('user-avatar').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(256)
    await page.goto('/app/settings')
  })

  await test.step('appearance: theme, glow and animation switches apply at once and persist', async () => {
    await tab(page, 'Appearance')
    await page.getByRole('button', { name: 'Ocean' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme-preset', 'emerald')
    await page.getByRole('switch', { name: 'Glow effects' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-glow', 'off')
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--glow-strength').trim())).toBe('0')
    await page.getByRole('switch', { name: 'Animations' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-animation', 'minimal')
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('data-glow', 'off')
    await expect(page.locator('html')).toHaveAttribute('data-theme-preset', 'emerald')
  })

  await test.step('notifications and privacy are server-side preferences', async () => {
    await tab(page, 'Notifications')
    const votes = page.getByRole('switch', { name: 'Votes closing' })
    await expect(votes).toBeEnabled()
    await expect(votes).toHaveAttribute('aria-checked', 'true')
    await votes.click()
    await expect(toast(page, 'Settings saved')).toBeVisible()
    await tab(page, 'Privacy')
    const pub = page.getByRole('switch', { name: 'Public profile' })
    await expect(pub).toBeEnabled()
    await pub.click()
    await expect(pub).toHaveAttribute('aria-checked', 'false')
    await page.reload()
    await tab(page, 'Notifications')
    await expect(page.getByRole('switch', { name: 'Votes closing' })).toHaveAttribute('aria-checked', 'false')
    await tab(page, 'Privacy')
    await expect(page.getByRole('switch', { name: 'Public profile' })).toHaveAttribute('aria-checked', 'false')
    await expectNoSeriousA11yViolations(page)
  })

  await test.step('a new follower arrives live as a notice (Realtime), with a link to their profile', async () => {
    const me = await session(page)
    const context = await browser.newContext()
    const fan = await context.newPage()
    const fanName = `fan${unique()}`.slice(0, 20)
    await signUpByApi(fan, { username: fanName, email: `${fanName}@example.com`, password: 'fan-pass-12' })
    await fan.goto('/app/home')
    const them = await session(fan)
    const status = await fan.evaluate(
      async ({ token, follower, following }) => {
        const res = await fetch('/rest/v1/follows', {
          method: 'POST',
          // The served page's own anon key (the gateway refuses a request without one).
          headers: {
            apikey: document.querySelector<HTMLMetaElement>('meta[name="cube-anon-key"]')!.content,
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ follower_id: follower, following_id: following }),
        })
        return res.status
      },
      { token: them.token, follower: them.id, following: me.id },
    )
    expect(status).toBe(201)
    await expect(toast(page, 'New follower')).toContainText(`${fanName} followed you`)
    await context.close()
  })
})

test('password change, TOTP two-factor (sign-in then needs a real code) and deleting the account', async ({ page }) => {
  const { name, email } = await signedUp(page, 'first-pass-1')
  await tab(page, 'Account')

  await test.step('update password: a wrong current password is refused, the right one works', async () => {
    const form = page.getByRole('form', { name: 'Update password' })
    await form.getByLabel('Current password').fill('not-my-pass')
    await form.getByLabel('New password', { exact: true }).fill('second-pass-2')
    await form.getByLabel('Confirm new password').fill('second-pass-2')
    await form.getByRole('button', { name: 'Update password' }).click()
    await expect(form.getByRole('alert')).toHaveText('Your current password is not correct.')
    await form.getByLabel('Current password').fill('first-pass-1')
    await form.getByRole('button', { name: 'Update password' }).click()
    await expect(toast(page, 'Password updated')).toBeVisible()
  })

  let secret = ''
  await test.step('turn on two-factor: QR code, a wrong code refused, the real code accepted', async () => {
    await page.getByRole('switch', { name: 'Two-factor authentication' }).click()
    await expect(page.getByTestId('totp-qr')).toBeVisible()
    secret = (await page.getByTestId('totp-secret').textContent()) ?? ''
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
    // The image the user scans decodes to the same secret (it was once cut short by an unencoded '#').
    const scanned = await page.getByTestId('totp-qr').evaluate(async (img: HTMLImageElement) => {
      await img.decode()
      const canvas = Object.assign(document.createElement('canvas'), { width: 360, height: 360 })
      const g = canvas.getContext('2d')!
      g.fillStyle = '#fff'
      g.fillRect(0, 0, 360, 360)
      g.drawImage(img, 20, 20, 320, 320)
      return [...g.getImageData(0, 0, 360, 360).data]
    })
    expect(jsQR(Uint8ClampedArray.from(scanned), 360, 360)?.data).toContain(`secret=${secret}`)
    const setup = page.getByRole('form', { name: 'Set up two-factor authentication' })
    const right = await generate({ secret })
    await setup.getByLabel('Code').fill(right === '123456' ? '654321' : '123456')
    await setup.getByRole('button', { name: 'Verify and turn on' }).click()
    await expect(setup.getByRole('alert')).toContainText('That code is not correct')
    await setup.getByLabel('Code').fill(right)
    await setup.getByRole('button', { name: 'Verify and turn on' }).click()
    await expect(toast(page, 'Two-factor authentication is on')).toBeVisible()
    await expect(page.getByRole('switch', { name: 'Two-factor authentication' })).toHaveAttribute('aria-checked', 'true')
  })

  await test.step('sign out and in: the new password, then a code (a wrong one refused)', async () => {
    await page.evaluate(() => localStorage.clear())
    await page.goto('/app/settings')
    await expect(page.getByTestId('settings-sign-in')).toBeVisible()
    const dialog = await logIn(page, email, 'second-pass-2')
    const code = dialog.getByRole('form', { name: 'Two-factor code' })
    await expect(code).toBeVisible()
    // Not signed in while the code is missing.
    await expect(page.getByTestId('settings-sign-in')).toBeVisible()
    await code.getByLabel('Code').fill('000000')
    await code.getByRole('button', { name: 'Verify' }).click()
    await expect(code.getByRole('alert')).toContainText('That code is not correct')
    // The next time step's code: the one used at enrolment cannot be replayed.
    await code.getByLabel('Code').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }))
    await code.getByRole('button', { name: 'Verify' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByLabel('Username')).toBeVisible()
  })

  await test.step('turn two-factor off again', async () => {
    await tab(page, 'Account')
    const toggle = page.getByRole('switch', { name: 'Two-factor authentication' })
    await expect(toggle).toHaveAttribute('aria-checked', 'true')
    await toggle.click()
    await expect(toast(page, 'Two-factor authentication turned off')).toBeVisible()
    await expect(toggle).toHaveAttribute('aria-checked', 'false')
  })

  await test.step('delete my account: the typed username must match; then the account is gone', async () => {
    await tab(page, 'Privacy')
    const confirm = page.getByLabel('Type your username to confirm')
    await confirm.fill('someone-else')
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page.getByRole('alert')).toHaveText('Type your username exactly to confirm.')
    await confirm.fill(name)
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(toast(page, 'Account deleted')).toBeVisible()
    await expect(page.getByTestId('settings-sign-in')).toBeVisible()
    const dialog = await logIn(page, email, 'second-pass-2')
    await expect(dialog.getByTestId('auth-error')).toBeVisible()
  })
})
