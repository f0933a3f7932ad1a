import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './support/test.ts'
import { logIn, openAuth, register, toast } from './support/auth.ts'
import { OwnServer } from './support/own-server.ts'
import type { CaughtMail } from '../../supabase/local/mail-catcher/catcher.ts'

// Accounts prove their e-mail, end to end: the built app on a server with confirmations on (the
// default), whose mail goes over SMTP to the mail catcher `npm start` runs. The confirmation and
// the reset mails arrive in that mailbox, and their links work in the browser.

const E2E_PORT = Number(process.env.E2E_PORT ?? 4173)
const MAILBOX_PORT = E2E_PORT + 10_004
const mailbox = `http://127.0.0.1:${MAILBOX_PORT}`
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`

/** The newest mail to `to` with this subject, once it arrived (the server sends after answering). */
async function mailTo(to: string, subject: string): Promise<CaughtMail> {
  let found: CaughtMail | undefined
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${mailbox}/api/messages?to=${encodeURIComponent(to)}`)).json()) as CaughtMail[]
        found = mails.find((m) => m.subject === subject)
        return Boolean(found)
      },
      { timeout: 15_000 },
    )
    .toBe(true)
  return found!
}
const verifyLink = (mail: CaughtMail) => mail.links.find((l) => l.includes('/auth/v1/verify'))!

test.describe('e-mail proof', () => {
  let server: OwnServer
  const email = `mailer-${unique()}@cube.test`

  test.beforeAll(async () => {
    test.setTimeout(90_000)
    const dataDir = mkdtempSync(join(tmpdir(), 'cube-mail-e2e-'))
    // Confirmations on, the administrator named: rights come only once the address is proven.
    server = new OwnServer(E2E_PORT + 10_003, dataDir, {
      LOCAL_DATA_RESET: '1',
      LOCAL_CHAIN: 'off',
      LOCAL_EMAIL_CONFIRM: 'on',
      LOCAL_MAILBOX_PORT: String(MAILBOX_PORT),
      LOCAL_ADMIN_EMAILS: email,
    })
    await server.start()
  })
  test.afterAll(async () => {
    await server?.dispose()
  })

  test('register → check your mail → its link confirms (administrator) → forgot password → reset page → new password', async ({ page }) => {
    test.setTimeout(90_000)
    await page.goto(`${server.origin}/app`)
    await register(page, `mailer_${unique()}`, email, 'first-password-1')
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByTestId('check-mail')).toContainText(`We sent a confirmation link to ${email}.`)
    await expect(page.getByTestId('account-email')).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Close' }).click()

    // Not confirmed yet: logging in is refused and offers the mail again.
    await logIn(page, email, 'first-password-1')
    await expect(dialog.getByRole('alert')).toHaveText(
      'Confirm your e-mail first: open the link in the mail we sent you, or send it again.',
    )
    await expect(dialog.getByRole('button', { name: 'Resend confirmation mail' })).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()

    // The developer's mailbox page shows it; its link confirms and signs in.
    const confirmation = await mailTo(email, 'Confirm your CUBE Music account')
    const box = await page.context().newPage()
    await box.goto(`${mailbox}/?id=${confirmation.id}`)
    await expect(box.getByRole('link', { name: /Confirm your CUBE Music account/ })).toBeVisible()
    await expect(box.frameLocator('iframe[title="Message"]').getByRole('link', { name: 'Confirm e-mail' })).toBeVisible()
    await box.close()
    await page.goto(verifyLink(confirmation))
    await expect(toast(page, 'E-mail confirmed')).toBeVisible()
    await expect(page.getByTestId('account-email')).toHaveText(email)
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' })).toBeVisible()

    // The link works once.
    await page.goto(verifyLink(confirmation))
    await expect(toast(page, 'That link did not work')).toBeVisible()

    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page.getByTestId('account-email')).toHaveCount(0)
    const auth = await openAuth(page, 'Log In')
    await auth.getByRole('button', { name: 'Forgot password?' }).click()
    await auth.getByLabel('Email').fill(email)
    await auth.getByRole('button', { name: 'Send reset link' }).click()
    await expect(auth.getByTestId('reset-sent')).toContainText(`If an account uses ${email}`)
    await auth.getByRole('button', { name: 'Close' }).click()

    const reset = await mailTo(email, 'Reset your CUBE Music password')
    await page.goto(verifyLink(reset))
    await expect(page).toHaveURL(/\/app\/reset-password/)
    await page.getByLabel('New password', { exact: true }).fill('second-password-2')
    await page.getByLabel('Repeat new password').fill('second-password-2')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await expect(toast(page, 'Password updated')).toBeVisible()
    await expect(page.getByTestId('account-email')).toHaveText(email)

    await page.getByRole('button', { name: 'Logout' }).click()
    await logIn(page, email, 'first-password-1')
    await expect(dialog.getByRole('alert')).toBeVisible()
    await dialog.getByLabel('Password').fill('second-password-2')
    await dialog.getByRole('button', { name: 'Log In' }).click()
    await expect(page.getByTestId('account-email')).toHaveText(email)
  })
})
