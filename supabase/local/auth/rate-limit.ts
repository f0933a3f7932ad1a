import type { IncomingMessage } from 'node:http'
import { clientAddress } from '../core/caller.ts'
import { authError } from '../core/errors.ts'

/**
 * How many requests one client address may make to a rate-limited auth endpoint within `seconds`
 * (GoTrue limits sign-ups per IP address the same way: GOTRUE_RATE_LIMIT_*, the dashboard's
 * "Rate Limits"; answered 429 `over_request_rate_limit` "Request rate limit reached").
 */
export interface RateLimit {
  max: number
  seconds: number
}

/** Sign-ups per client address per hour (LOCAL_SIGNUP_RATE_LIMIT). */
export const DEFAULT_SIGNUP_RATE_LIMIT: RateLimit = { max: 30, seconds: 3600 }

/**
 * GoTrue's in-memory limiter, per address: each request counts (accepted or refused by the handler
 * later, as in GoTrue, where the limiter runs before the handler), and a request is refused while
 * `max` requests of that address fall within the last `seconds`. State lives in this process only,
 * like GoTrue's; a restart forgets it.
 */
export function createRateLimiter(limit: RateLimit, now: () => number = Date.now) {
  const hits = new Map<string, number[]>()
  const windowMs = limit.seconds * 1000
  let lastSweep = now()
  const recent = (times: number[], t: number) => times.filter((x) => x > t - windowMs)
  return {
    /** Counts one request of `address`; false when it is over the limit (and is not counted). */
    take(address: string): boolean {
      const t = now()
      if (t - lastSweep > windowMs) {
        for (const [key, times] of hits) {
          const kept = recent(times, t)
          if (kept.length) hits.set(key, kept)
          else hits.delete(key)
        }
        lastSweep = t
      }
      const times = recent(hits.get(address) ?? [], t)
      if (times.length >= limit.max) {
        hits.set(address, times)
        return false
      }
      times.push(t)
      hits.set(address, times)
      return true
    },
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

/** Refuses the request with GoTrue's 429 when its client address is over the limit. */
export function checkRateLimit(limiter: RateLimiter, req: IncomingMessage): void {
  if (!limiter.take(clientAddress(req))) throw authError(429, 'over_request_rate_limit', 'Request rate limit reached')
}

/** Password-reset and resend requests per client address per hour (GoTrue's RATE_LIMIT_EMAIL_SENT, 30 with custom SMTP). */
export const DEFAULT_MAIL_RATE_LIMIT: RateLimit = { max: 30, seconds: 3600 }
