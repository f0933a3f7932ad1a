import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { signJwt } from '../../supabase/local/core/jwt.ts'
import { startTestServer, type TestServer } from './support/local-backend.ts'

// supabase-js's own Realtime integration tests (github.com/supabase/supabase-js,
// packages/core/supabase-js/test/integration.test.ts: "Realtime with vsn: 1.0.0 / 2.0.0" and
// "Custom JWT"), run against the embedded server as upstream runs them against `supabase start`:
// the same steps and expectations, with the server's URL, keys and JWT secret, `ws` as the
// transport (Node 20 has no global WebSocket) and the policies of upstream's own realtime RLS setup
// migration, version 20250423000000 of its test project (authenticated users may read and write
// every topic containing "channel"). Upstream's 1.2 s wait for the client's deferred disconnect is
// a poll here; everything else is upstream's.

let server: TestServer
const clients: SupabaseClient[] = []

beforeAll(async () => {
  server = await startTestServer()
  await server.db.exec(
    `create policy "authenticated can read all messages on topic" on "realtime"."messages" for select to authenticated
       using ( realtime.topic() like '%channel%' );
     create policy "authenticated can insert messages on topic" on "realtime"."messages" for insert to authenticated
       with check (realtime.topic() like '%channel%');`,
  )
}, 60_000)
afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels()))
  await server?.close()
})

const waitFor = async (check: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timeout waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe.each([{ vsn: '1.0.0' }, { vsn: '2.0.0' }])('Realtime with vsn: $vsn', ({ vsn }) => {
  const channelName = `channel-${crypto.randomUUID()}`
  let channel: RealtimeChannel
  let supabase: SupabaseClient

  beforeEach(async () => {
    supabase = createClient(server.url, server.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { heartbeatIntervalMs: 500, vsn, transport: WebSocket as unknown as typeof globalThis.WebSocket },
    })
    clients.push(supabase)
    await supabase.auth.signOut()
    const { error } = await supabase.auth.signUp({ email: `test-${crypto.randomUUID()}@example.com`, password: 'password123' })
    expect(error).toBeNull()
    const config = { broadcast: { ack: true, self: true }, private: true }
    channel = supabase.channel(channelName, { config })
  })
  afterEach(async () => {
    await supabase.removeAllChannels()
  })

  const subscribed = (c: RealtimeChannel) =>
    new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error(`Timeout waiting for ${c.topic}`)), 8000)
      c.subscribe((status, err) => {
        if (status === 'SUBSCRIBED') {
          clearTimeout(timeout)
          resolve()
        } else if (status === 'CHANNEL_ERROR') reject(err ?? new Error(status))
      })
    })

  test('is able to connect and broadcast', async () => {
    let receivedMessage: unknown
    channel.on('broadcast', { event: 'test-event' }, (payload) => (receivedMessage = payload))
    await subscribed(channel)
    await channel.send({ type: 'broadcast', event: 'test-event', payload: { message: 'test' } })
    await waitFor(() => receivedMessage !== undefined, 'message')
    expect(receivedMessage).toMatchObject({ event: 'test-event', payload: { message: 'test' } })
    expect(supabase.realtime.getChannels().length).toBe(1)
  })

  test('socket stays connected when switching channels (no race condition)', async () => {
    const config = { broadcast: { ack: true, self: true }, private: true }
    const channelA = supabase.channel(`${channelName}-a`, { config })
    await subscribed(channelA)
    await supabase.removeChannel(channelA)
    expect(supabase.realtime.isConnected()).toBe(true)
    const channelB = supabase.channel(`${channelName}-b`, { config }).on('broadcast', { event: 'ping' }, () => {})
    await subscribed(channelB)
    expect(supabase.realtime.isConnected()).toBe(true)
  })

  test('socket disconnects after removeChannel when no channels remain', async () => {
    await subscribed(channel)
    expect(supabase.realtime.isConnected()).toBe(true)
    await supabase.removeChannel(channel)
    // Deferred disconnect is scheduled: the socket is still open, then closes (2 × heartbeatIntervalMs).
    expect(supabase.realtime.isConnected()).toBe(true)
    await waitFor(() => !supabase.realtime.isConnected(), 'the deferred disconnect')
  })

  test('socket disconnects after channel.unsubscribe() when no channels remain', async () => {
    await subscribed(channel)
    expect(supabase.realtime.isConnected()).toBe(true)
    await channel.unsubscribe()
    expect(supabase.realtime.isConnected()).toBe(true)
    await waitFor(() => !supabase.realtime.isConnected(), 'the deferred disconnect')
  })

  test('removeAllChannels disconnects socket immediately', async () => {
    await Promise.all([subscribed(supabase.channel(`${channelName}-a`)), subscribed(supabase.channel(`${channelName}-b`))])
    expect(supabase.realtime.isConnected()).toBe(true)
    await supabase.removeAllChannels()
    expect(supabase.realtime.isConnected()).toBe(false)
  })

  test('httpSend delivers JSON broadcast to a public channel', async () => {
    const publicChannel = supabase.channel(`public-${crypto.randomUUID()}`, { config: { broadcast: { self: true } } })
    let received: Record<string, unknown> | undefined
    publicChannel.on('broadcast', { event: 'json' }, (payload) => (received = payload))
    await subscribed(publicChannel)
    expect(await publicChannel.httpSend('json', { hello: 'public' })).toEqual({ success: true })
    await waitFor(() => received !== undefined, 'broadcast')
    expect(received!.payload).toEqual({ hello: 'public' })
  })

  test('httpSend delivers JSON broadcast to a private channel', async () => {
    let received: Record<string, unknown> | undefined
    channel.on('broadcast', { event: 'json-private' }, (payload) => (received = payload))
    await subscribed(channel)
    expect(await channel.httpSend('json-private', { hello: 'private' })).toEqual({ success: true })
    await waitFor(() => received !== undefined, 'broadcast')
    expect(received!.payload).toEqual({ hello: 'private' })
  })

  // Upstream skips it on vsn 1.0.0, whose JSON frames cannot carry bytes.
  test.runIf(vsn === '2.0.0')('httpSend delivers a binary broadcast to a private channel', async () => {
    let received: Record<string, unknown> | undefined
    channel.on('broadcast', { event: 'binary' }, (payload) => (received = payload))
    await subscribed(channel)
    const bytes = new Uint8Array([1, 2, 3, 4, 5])
    expect(await channel.httpSend('binary', bytes)).toEqual({ success: true })
    await waitFor(() => received !== undefined, 'broadcast')
    expect(new Uint8Array(received!.payload as ArrayBuffer)).toEqual(bytes)
  })
})

describe('Custom JWT', () => {
  test('Realtime will connect with a properly signed jwt token', async () => {
    const jwtToken = await signJwt(
      { sub: '1234567890', role: 'anon', iss: 'supabase-demo', exp: Math.floor(Date.now() / 1000) + 3600 },
      server.keys.jwtSecret,
    )
    const supabaseWithCustomJwt = createClient(server.url, server.keys.anonKey, {
      accessToken: () => Promise.resolve(jwtToken),
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    })
    try {
      await new Promise<void>((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error('Timeout waiting for subscription')), 4000)
        supabaseWithCustomJwt.channel('test-channel').subscribe((status, err) => {
          if (status === 'SUBSCRIBED') {
            clearTimeout(timeout)
            expect(supabaseWithCustomJwt.realtime.accessTokenValue).toBe(jwtToken)
            resolve()
          } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
            clearTimeout(timeout)
            reject(err || new Error(`Subscription failed with status: ${status}`))
          }
        })
      })
    } finally {
      await supabaseWithCustomJwt.removeAllChannels()
    }
  })
})
