import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PRESENCE_BYTES, MAX_PRESENCE_FIELDS, MAX_PRESENCES_PER_ADDRESS } from '../../supabase/local/realtime/presence.ts'
import { startTestServer, type TestServer } from './support/local-backend.ts'
import { until as waitUntil } from './support/waiting.ts'

// Presence counts people: CUBE Radio's "N listening now" is the number of keys present on the
// station's topic. A visitor holds only the public anon key and one address; here such a visitor
// opens thirty supabase-js clients and tracks in each, and tracks oversized payloads that would be
// relayed to every member.

let server: TestServer
const clients: SupabaseClient[] = []

beforeAll(async () => {
  server = await startTestServer()
}, 60_000)
afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels()))
  await server?.close()
})

/** ws from a chosen local address (the loopback network answers any 127.x source). */
const fromAddress = (localAddress: string) =>
  class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { localAddress })
    }
  }

function visitor(address = '127.0.0.1'): SupabaseClient {
  const c = createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Generous push timeout: under CI load a reply may take seconds, and a timeout is neither ok nor error.
    realtime: { transport: fromAddress(address) as unknown as typeof globalThis.WebSocket, timeout: 30_000 },
  })
  clients.push(c)
  return c
}

// Presence goes round the room's members: more time than a broadcast.
const until = (check: () => boolean) => waitUntil(check, 15_000)

async function joined(topic: string, address?: string): Promise<RealtimeChannel> {
  const channel = visitor(address).channel(topic, { config: { presence: { key: crypto.randomUUID() } } })
  channel.on('presence', { event: 'sync' }, () => undefined)
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve()
      else if (status !== 'CLOSED') reject(error ?? new Error(status))
    }),
  )
  return channel
}

/** One raw Phoenix push and the server's reply to it (vsn 1.0.0: JSON objects). */
async function rawTrack(topic: string, tracked: unknown): Promise<{ status: string; response: { reason?: string } }> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${server.keys.anonKey}&vsn=1.0.0`)
  const replies = new Map<string, { status: string; response: { reason?: string } }>()
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as {
      event: string
      ref: string | null
      payload: { status: string; response: { reason?: string } }
    }
    if (m.event === 'phx_reply' && m.ref) replies.set(m.ref, m.payload)
  })
  await new Promise((resolve) => ws.once('open', resolve))
  const push = (ref: string, event: string, payload: unknown) =>
    ws.send(JSON.stringify({ topic: `realtime:${topic}`, event, payload, ref, join_ref: '1' }))
  push('1', 'phx_join', { config: { presence: { key: 'raw', enabled: true } } })
  await until(() => replies.has('1'))
  push('2', 'presence', { type: 'presence', event: 'track', payload: tracked })
  await until(() => replies.has('2'))
  ws.close()
  return replies.get('2')!
}

describe('Realtime presence is bounded per client address and topic', () => {
  it(`thirty channels from one address with the public key: ${MAX_PRESENCES_PER_ADDRESS} are present, the rest are refused`, async () => {
    const topic = 'radio:any:any'
    const watcher = await joined(topic)
    const channels = await Promise.all(Array.from({ length: 30 }, () => joined(topic)))
    const results = await Promise.all(channels.map((c) => c.track({ since: new Date().toISOString() })))
    expect(results.filter((r) => r === 'ok')).toHaveLength(MAX_PRESENCES_PER_ADDRESS)
    expect(results.filter((r) => r === 'error')).toHaveLength(30 - MAX_PRESENCES_PER_ADDRESS)
    // What the radio shows: the keys present on the topic, as every member sees them.
    expect(await until(() => Object.keys(watcher.presenceState()).length === MAX_PRESENCES_PER_ADDRESS)).toBe(true)
    await new Promise((r) => setTimeout(r, 200))
    expect(Object.keys(watcher.presenceState())).toHaveLength(MAX_PRESENCES_PER_ADDRESS)

    // A present channel re-tracking is not a new listener; once one leaves, another may take its place.
    const present = channels.filter((_, i) => results[i] === 'ok')
    const refused = channels.filter((_, i) => results[i] === 'error')
    expect(await present[0]!.track({ since: 'again' })).toBe('ok')
    expect(await refused[0]!.track({ since: 'now' })).toBe('error')
    await present[1]!.unsubscribe()
    expect(await refused[0]!.track({ since: 'now' })).toBe('ok')
    expect(await until(() => Object.keys(watcher.presenceState()).length === MAX_PRESENCES_PER_ADDRESS)).toBe(true)

    // The bound is per topic, and another address is not held by this one's.
    expect(await (await joined('radio:calm:any')).track({ since: 'now' })).toBe('ok')
    const neighbour = await joined(topic, '127.0.0.2')
    expect(await neighbour.track({ since: 'now' })).toBe('ok')
    expect(await until(() => Object.keys(watcher.presenceState()).length === MAX_PRESENCES_PER_ADDRESS + 1)).toBe(true)
  }, 90_000)

  it('an oversized tracked payload is refused with a reason and relayed to nobody', async () => {
    const topic = 'radio:loud:any'
    const watcher = await joined(topic, '127.0.0.3')
    const bloated = await joined(topic, '127.0.0.4')
    const tooManyKeys = Object.fromEntries(Array.from({ length: MAX_PRESENCE_FIELDS + 1 }, (_, i) => [`k${i}`, i]))
    expect(await bloated.track(tooManyKeys)).toBe('error')
    expect(await bloated.track({ blob: 'x'.repeat(MAX_PRESENCE_BYTES) })).toBe('error')
    await new Promise((r) => setTimeout(r, 200))
    expect(watcher.presenceState()).toEqual({})
    // A payload within the bounds is still tracked and relayed.
    expect(await bloated.track({ since: 'now' })).toBe('ok')
    expect(await until(() => Object.keys(watcher.presenceState()).length === 1)).toBe(true)

    // The refusal says why, in Realtime's error reply ({status: 'error', response: {reason}}).
    expect(await rawTrack('radio:raw:any', { blob: 'x'.repeat(MAX_PRESENCE_BYTES) })).toEqual({
      status: 'error',
      response: { reason: expect.stringMatching(new RegExp(`at most ${MAX_PRESENCE_BYTES} bytes`)) },
    })
    expect((await rawTrack('radio:raw:any', tooManyKeys)).response.reason).toMatch(new RegExp(`at most ${MAX_PRESENCE_FIELDS} keys`))
  }, 60_000)
})
