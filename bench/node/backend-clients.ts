// What the backend benches share: signed-in clients with wallets, timed calls, percentiles.
import type { LocalServer } from '../../supabase/local/core/server.ts'

/** The p-th percentile of ascending `sorted` values. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** fetch + JSON body, its latency pushed to `latencies`; a non-2xx answer throws. */
export async function timedCall(url: string, init: RequestInit, latencies: number[]): Promise<unknown> {
  const start = performance.now()
  const response = await fetch(url, init)
  const body = await response.json()
  latencies.push(performance.now() - start)
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`)
  return body
}

/** `count` new users, each with a wallet (init-user-tokens); their access tokens. */
export async function signUpClients(server: LocalServer, count: number, prefix = 'bench'): Promise<string[]> {
  const tokens: string[] = []
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: server.keys.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: `${prefix}${i}-${Date.now()}@example.com`, password: 'bench-password' }),
    })
    const session = (await response.json()) as { access_token: string }
    tokens.push(session.access_token)
    await fetch(`${server.url}/api/init-user-tokens`, { method: 'POST', headers: { Authorization: `Bearer ${session.access_token}` } })
  }
  return tokens
}
