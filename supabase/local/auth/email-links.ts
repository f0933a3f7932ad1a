import { randomBytes } from 'node:crypto'
import { authError } from '../core/errors.ts'
import type { AuthOptions } from './context.ts'
import { hashToken } from './sessions.ts'

/** The kinds of one-time link GoTrue mails, as /verify's `type` names them. */
export type LinkType = 'signup' | 'recovery' | 'email_change'

/** A fresh link token: the mail carries `token`, the database only its hash. */
export function newLinkToken() {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashToken(token) }
}

/**
 * Where a link may send its session: the requested redirect when it is on the site's own origin
 * (GoTrue's SITE_URL plus its allow list), else the site. A link to another origin would hand
 * the account's tokens to whoever asked for the mail.
 */
export function safeRedirect(options: AuthOptions, requested: string | null | undefined): string {
  const site = options.siteUrl()
  if (!requested) return site
  try {
    const url = new URL(requested)
    if (url.origin === new URL(site).origin) return url.href
  } catch {
    // not a URL: the site
  }
  return site
}

/** The link in the mail: GoTrue's `{API_EXTERNAL_URL}/verify?token=…&type=…&redirect_to=…`. */
export function verifyLink(options: AuthOptions, token: string, type: LinkType, redirectTo: string): string {
  const url = new URL('/auth/v1/verify', options.siteUrl())
  url.searchParams.set('token', token)
  url.searchParams.set('type', type)
  url.searchParams.set('redirect_to', redirectTo)
  return url.href
}

/**
 * GoTrue's SMTP_MAX_FREQUENCY: one mail of a kind per address within `seconds`. Kept per address
 * as written, whether or not an account has it, so the refusal says nothing about accounts.
 */
export function createMailFrequency(seconds: number, now: () => number = Date.now) {
  const last = new Map<string, number>()
  return {
    /** Counts a mail of `kind` to `email`; throws GoTrue's 429 while the last one is too recent. */
    take(email: string, kind: string): void {
      const t = now()
      for (const [key, at] of last) if (t - at >= seconds * 1000) last.delete(key)
      const key = `${kind} ${email}`
      const at = last.get(key)
      if (at !== undefined) {
        const wait = Math.ceil((at + seconds * 1000 - t) / 1000)
        throw authError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${wait} seconds.`)
      }
      last.set(key, t)
    },
  }
}

export type MailFrequency = ReturnType<typeof createMailFrequency>
