import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { simpleParser, type AddressObject } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { mailboxPage } from './mailbox-page.ts'

/** One caught mail, as the JSON API answers it. */
export interface CaughtMail {
  id: string
  from: string
  to: string[]
  subject: string
  /** ISO time the catcher received it. */
  date: string
  text: string
  html: string
  /** Every http(s) link in the text part, in order (what a test follows). */
  links: string[]
}

export interface MailCatcher {
  /** Where to send: `smtp://127.0.0.1:<port>`. */
  smtpUrl: string
  /** The mailbox page; its JSON API is under `/api/messages`. */
  url: string
  messages(): readonly CaughtMail[]
  close(): Promise<void>
}

export interface MailCatcherOptions {
  /** 0 (default) picks a free port. */
  smtpPort?: number
  /** The mailbox page's port; 0 (default) picks one, and a taken port falls back to a free one. */
  httpPort?: number
  /** Mails kept, newest first; older ones are dropped. */
  keep?: number
}

const HOST = '127.0.0.1'
const MAX_MAIL_BYTES = 2 * 1024 * 1024

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? '').filter(Boolean))

/**
 * The local stand-in for a real mailbox, as Supabase's local stack runs a mail catcher: an SMTP
 * server (smtp-server) that accepts every mail on the loopback address and keeps it in memory,
 * parsed (mailparser), and a mailbox page with a JSON API for the developer and the tests.
 * Nothing is relayed anywhere.
 */
export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const keep = options.keep ?? 500
  let mails: CaughtMail[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: MAX_MAIL_BYTES,
    banner: 'CUBE Music local mail catcher',
    onData(stream, session, callback) {
      simpleParser(stream, { skipImageLinks: true })
        .then((parsed) => {
          if ((stream as { sizeExceeded?: boolean }).sizeExceeded) return callback(new Error('Message too big'))
          const text = parsed.text ?? ''
          const to = addresses(parsed.to)
          mails = [
            {
              id: randomUUID(),
              from: addresses(parsed.from)[0] ?? session.envelope.mailFrom?.toString() ?? '',
              to: to.length ? to : session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              date: new Date().toISOString(),
              text,
              html: typeof parsed.html === 'string' ? parsed.html : '',
              links: [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]),
            },
            ...mails,
          ].slice(0, keep)
          callback()
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))))
    },
  })
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject)
    smtp.listen(options.smtpPort ?? 0, HOST, () => resolve())
  })
  const smtpPort = (smtp.server.address() as AddressInfo).port

  const http = createServer((req, res) => {
    try {
      answer(req, res)
    } catch (error) {
      console.error('mail catcher:', error)
      if (!res.headersSent) res.writeHead(500).end()
    }
  })
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    // Only this machine's browsers and tests: a page elsewhere that renamed itself (DNS rebinding)
    // to reach the loopback port is refused by its Host header.
    const host = (req.headers.host ?? '').replace(/:\d+$/, '')
    if (host !== HOST && host !== 'localhost') return json(res, 403, { error: 'forbidden host' })
    const url = new URL(req.url ?? '/', `http://${HOST}`)
    const one = /^\/api\/messages\/([0-9a-f-]{36})(\/html)?$/.exec(url.pathname)
    if (req.method === 'GET' && url.pathname === '/api/messages') {
      const to = url.searchParams.get('to')?.toLowerCase()
      return json(res, 200, to ? mails.filter((m) => m.to.some((a) => a.toLowerCase() === to)) : mails)
    }
    if (req.method === 'DELETE' && url.pathname === '/api/messages') {
      mails = []
      return json(res, 200, { deleted: true })
    }
    if (req.method === 'GET' && one) {
      const mail = mails.find((m) => m.id === one[1])
      if (!mail) return json(res, 404, { error: 'no such message' })
      if (!one[2]) return json(res, 200, mail)
      // The mail's own HTML, in a sandbox: no scripts, nothing fetched from elsewhere.
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy':
          "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      })
      // Links open outside the frame, in a tab of their own.
      return res.end('<base target="_blank">' + (mail.html || `<pre>${mail.text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)}</pre>`))
    }
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; form-action 'self'",
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
        'Cache-Control': 'no-store',
      })
      return res.end(mailboxPage(mails, url.searchParams.get('id')))
    }
    json(res, 404, { error: 'not found' })
  }
  const httpPort = await listen(http, options.httpPort ?? 0)
  return {
    smtpUrl: `smtp://${HOST}:${smtpPort}`,
    url: `http://${HOST}:${httpPort}`,
    messages: () => mails,
    async close() {
      http.closeAllConnections()
      await Promise.all([
        new Promise<void>((resolve) => http.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ])
    },
  }
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
  res.end(JSON.stringify(body))
}

/** Listens on `port`, or on a free port when that one is taken (a second checkout running at once). */
async function listen(server: Server, port: number): Promise<number> {
  const attempt = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(p, HOST, () => {
        server.off('error', reject)
        resolve()
      })
    })
  try {
    await attempt(port)
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    await attempt(0)
  }
  return (server.address() as AddressInfo).port
}
