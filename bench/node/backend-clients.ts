// What the backend benches share: signed-in clients with wallets, timed calls, percentiles.
import { Worker } from 'node:worker_threads'
import type { LocalServer } from '../../supabase/local/core/server.ts'

/** The p-th percentile of ascending `sorted` values. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

export interface CallInit {
  method?: string
  headers?: Record<string, string>
  body?: string
}

interface Answer {
  status: number
  text: string
  ms: number
}

let clients: { worker: Worker; next: number; pending: Map<number, (answers: Answer[]) => void> } | undefined

/** The thread the timed calls run on (client-thread.mjs); stopped with stopClientThread(). */
function clientThread() {
  if (clients) return clients
  const worker = new Worker(new URL('./client-thread.mjs', import.meta.url))
  const pending = new Map<number, (answers: Answer[]) => void>()
  worker.on('message', (m: { id: number; answers: Answer[] }) => {
    pending.get(m.id)?.(m.answers)
    pending.delete(m.id)
  })
  clients = { worker, next: 0, pending }
  return clients
}

export async function stopClientThread(): Promise<void> {
  await clients?.worker.terminate()
  clients = undefined
}

/**
 * All `calls` at once from the clients' own thread; their JSON answers in order, their latencies
 * (measured on that thread) pushed to `latencies`. A non-2xx answer throws.
 */
export async function timedCalls(calls: (CallInit & { url: string })[], latencies: number[]): Promise<unknown[]> {
  const thread = clientThread()
  const id = ++thread.next
  const answers = await new Promise<Answer[]>((resolve) => {
    thread.pending.set(id, resolve)
    thread.worker.postMessage({ id, calls })
  })
  return answers.map((a) => {
    latencies.push(a.ms)
    if (a.status < 200 || a.status >= 300) throw new Error(`${a.status} ${a.text.slice(0, 500)}`)
    return a.text ? (JSON.parse(a.text) as unknown) : null
  })
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
