import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailCatcher, type CaughtMail, type MailCatcher } from '../../supabase/local/mail-catcher/catcher.ts'

// The local mail catcher `npm start` runs: a real SMTP server whose mailbox page and JSON API the
// developer and the tests read.

let catcher: MailCatcher
beforeAll(async () => {
  catcher = await startMailCatcher({ keep: 3 })
})
afterAll(() => catcher?.close())

const send = (to: string, subject: string) =>
  nodemailer.createTransport(catcher.smtpUrl).sendMail({
    from: 'CUBE Music <no-reply@cube.local>',
    to,
    subject,
    text: `Open https://127.0.0.1:1/auth/v1/verify?token=abc&type=signup to confirm.`,
    html: `<p>Open <a href="https://127.0.0.1:1/auth/v1/verify?token=abc&amp;type=signup">this</a></p><script>alert(1)</script>`,
  })

describe('mail catcher', () => {
  it('catches mail over SMTP and answers it as JSON, filtered by recipient, newest first, keeping the last few', async () => {
    await send('Ada@Example.com', 'first')
    await send('bob@example.com', 'second')
    const all = (await (await fetch(`${catcher.url}/api/messages`)).json()) as CaughtMail[]
    expect(all.map((m) => m.subject)).toEqual(['second', 'first'])
    const ada = (await (await fetch(`${catcher.url}/api/messages?to=ada@example.com`)).json()) as CaughtMail[]
    expect(ada).toHaveLength(1)
    expect(ada[0]).toMatchObject({ from: 'no-reply@cube.local', to: ['Ada@example.com'], subject: 'first' })
    expect(ada[0]!.links).toEqual(['https://127.0.0.1:1/auth/v1/verify?token=abc&type=signup'])
    const one = await fetch(`${catcher.url}/api/messages/${ada[0]!.id}`)
    expect(((await one.json()) as CaughtMail).text).toContain('to confirm.')

    for (const subject of ['third', 'fourth']) await send('bob@example.com', subject)
    expect(catcher.messages().map((m) => m.subject)).toEqual(['fourth', 'third', 'second'])
    expect((await fetch(`${catcher.url}/api/messages`, { method: 'DELETE' })).status).toBe(200)
    expect(catcher.messages()).toHaveLength(0)
  })

  it("shows the mailbox page, and a mail's HTML only in a sandbox", async () => {
    await send('cy@example.com', 'Confirm <your> account')
    const page = await fetch(`${catcher.url}/`)
    const html = await page.text()
    expect(html).toContain('Confirm &lt;your&gt; account')
    expect(html).not.toContain('<script')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    const [mail] = catcher.messages()
    const body = await fetch(`${catcher.url}/api/messages/${mail!.id}/html`)
    expect(body.headers.get('content-security-policy')).toMatch(/^sandbox /)
    expect(await body.text()).toContain('href="https://127.0.0.1:1/auth/v1/verify')
  })

  it('answers only requests for its loopback name (no DNS rebinding) and 404s the rest', async () => {
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(catcher.url)
      request({ host: url.hostname, port: url.port, path: '/api/messages', headers: { Host: 'attacker.example' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
        .on('error', reject)
        .end()
    })
    expect(status).toBe(403)
    expect((await fetch(`${catcher.url}/api/nothing`)).status).toBe(404)
  })
})
