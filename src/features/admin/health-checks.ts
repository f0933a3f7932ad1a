import type { SupabaseClient } from '@supabase/supabase-js'

// API Config's live checks: each is a real request to one service of the backend in use, timed.

export interface HealthResult {
  name: string
  ok: boolean
  detail: string
  ms: number
}

async function timed(name: string, check: () => Promise<string>): Promise<HealthResult> {
  const start = performance.now()
  try {
    const detail = await check()
    return { name, ok: true, detail, ms: Math.round(performance.now() - start) }
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message, ms: Math.round(performance.now() - start) }
  }
}

export function runHealthChecks(db: SupabaseClient, backendUrl: string, anonKey: string): Promise<HealthResult[]> {
  return Promise.all([
    timed('Backend (auth)', async () => {
      const res = await fetch(`${backendUrl}/auth/v1/health`, { headers: { apikey: anonKey } })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      const body = (await res.json()) as { name?: string }
      return body.name ?? 'up'
    }),
    timed('Database', async () => {
      const { data, error } = await db.rpc('public_site_settings')
      if (error) throw new Error(error.message)
      return `answering (site "${(data as { site_title: string }).site_title}")`
    }),
    timed('Chain (ethereum)', async () => {
      // A receipt query for a transaction that cannot exist: a chain that answers says 'no such
      // transaction' (404); no provider or a chain that is down answers otherwise.
      const res = await fetch(`${backendUrl}/functions/v1/chain-transaction?chain=ethereum&hash=0x${'0'.repeat(64)}`, {
        headers: { apikey: anonKey },
      })
      if (res.status === 404) return 'answering receipt queries'
      const body = (await res.json().catch(() => ({}))) as { error?: string }
      throw new Error(body.error ?? `HTTP ${res.status}`)
    }),
    timed('Storage', async () => {
      const { error } = await db.storage.from('avatars').list('', { limit: 1 })
      if (error) throw new Error(error.message)
      return 'public buckets reachable'
    }),
  ])
}
