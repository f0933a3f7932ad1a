import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { supabaseClient, type TestServer } from './support/local-backend.ts'
import { until } from './support/waiting.ts'

// Broadcast and presence on public channels, through the unchanged supabase-js 2.109 (its bundled
// realtime-js: RealtimeChannel.send/track/untrack, lib/serializer.js binary broadcasts), with the
// behaviour of hosted Realtime (github.com/supabase/realtime, RealtimeWeb.RealtimeChannel: broadcast
// `self` and `ack`, presence_state on join, presence_diff on track/untrack/leave) and of realtime-js's
// own tests (test/RealtimeChannel.broadcast.test.ts, test/RealtimePresence.test.ts).

type Received = Record<string, unknown>

function join(channel: RealtimeChannel): Promise<string> {
  return new Promise((resolve) => {
    channel.subscribe((status) => {
      if (status !== 'CLOSED') resolve(status)
    })
  })
}

describe.each(DATABASES)('Realtime broadcast and presence on %s', (database) => {
  let server: TestServer
  let stop: (() => Promise<void>) | undefined
  const clients: SupabaseClient[] = []
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(async () => {
    for (const c of clients) await c.removeAllChannels()
    await stop?.()
  })
  const client = () => {
    const c = supabaseClient(server)
    clients.push(c)
    return c
  }

  /** A channel on `topic` that records every broadcast it receives. */
  async function listener(topic: string, config: { self?: boolean; ack?: boolean } = {}) {
    const received: Received[] = []
    const channel = client()
      .channel(topic, { config: { broadcast: config } })
      .on('broadcast', { event: '*' }, (message) => received.push(message))
    expect(await join(channel)).toBe('SUBSCRIBED')
    return { channel, received }
  }

  it('broadcast reaches the other channels on the topic, not the sender (self: false), in order', async () => {
    const a = await listener('room-1')
    const b = await listener('room-1')
    const elsewhere = await listener('room-2')
    expect(await b.channel.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2 } })).toBe('ok')
    expect(await a.channel.send({ type: 'broadcast', event: 'cursor', payload: { x: 3 } })).toBe('ok')
    expect(await until(() => a.received.length === 1 && b.received.length === 1)).toBe(true)
    expect(a.received).toEqual([{ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2 } }])
    // b got a's message, sent after its own, and never its own.
    expect(b.received).toEqual([{ type: 'broadcast', event: 'cursor', payload: { x: 3 } }])
    await a.channel.send({ type: 'broadcast', event: 'done', payload: {} })
    expect(await until(() => b.received.length === 2)).toBe(true)
    expect(elsewhere.received).toEqual([])
  })

  it('self: true delivers the sender its own broadcast; ack: true has the server acknowledge it', async () => {
    const own = await listener('room-3', { self: true, ack: true })
    // With ack, realtime-js waits for the server's reply: 'ok' only if Realtime answered the push.
    expect(await own.channel.send({ type: 'broadcast', event: 'note', payload: { pitch: 'A4' } })).toBe('ok')
    expect(await until(() => own.received.length === 1)).toBe(true)
    expect(own.received).toEqual([{ type: 'broadcast', event: 'note', payload: { pitch: 'A4' } }])
  })

  it('presence: presence_state on join, presence_diff on track and untrack (who is listening now)', async () => {
    const watcher = client().channel('radio', { config: { presence: { key: 'watcher' } } })
    const syncs: Record<string, unknown[]>[] = []
    watcher.on('presence', { event: 'sync' }, () => syncs.push(watcher.presenceState()))
    expect(await join(watcher)).toBe('SUBSCRIBED')

    const listenerA = client().channel('radio', { config: { presence: { key: 'alice' } } })
    listenerA.on('presence', { event: 'sync' }, () => undefined)
    expect(await join(listenerA)).toBe('SUBSCRIBED')
    expect(await listenerA.track({ station: 'cube-radio' })).toBe('ok')
    expect(await until(() => 'alice' in watcher.presenceState())).toBe(true)
    expect(watcher.presenceState().alice).toEqual([expect.objectContaining({ station: 'cube-radio', presence_ref: expect.any(String) })])

    // A channel joining later gets the current state at once.
    const late = client().channel('radio', { config: { presence: { key: 'late' } } })
    late.on('presence', { event: 'sync' }, () => undefined)
    expect(await join(late)).toBe('SUBSCRIBED')
    expect(await until(() => 'alice' in late.presenceState())).toBe(true)

    expect(await listenerA.untrack()).toBe('ok')
    expect(await until(() => !('alice' in watcher.presenceState()))).toBe(true)
    expect(syncs.length).toBeGreaterThanOrEqual(2)
  })

  it('leaving the channel removes what it tracked', async () => {
    const watcher = client().channel('radio-2', { config: { presence: { key: 'w' } } })
    watcher.on('presence', { event: 'sync' }, () => undefined)
    expect(await join(watcher)).toBe('SUBSCRIBED')
    const bob = client().channel('radio-2', { config: { presence: { key: 'bob' } } })
    bob.on('presence', { event: 'sync' }, () => undefined)
    expect(await join(bob)).toBe('SUBSCRIBED')
    await bob.track({ here: true })
    expect(await until(() => 'bob' in watcher.presenceState())).toBe(true)
    await bob.unsubscribe()
    expect(await until(() => !('bob' in watcher.presenceState()))).toBe(true)
  })

  it('a private channel nobody has a realtime.messages policy for is refused at join with hosted Realtime’s reason', async () => {
    const errors: string[] = []
    const channel = client().channel('secret', { config: { private: true } })
    const status = await new Promise<string>((resolve) => {
      channel.subscribe((s, error) => {
        if (error) errors.push(error.message)
        if (s !== 'CLOSED') resolve(s)
      })
    })
    expect(status).toBe('CHANNEL_ERROR')
    expect(errors.join(' ')).toBe('Unauthorized: You do not have permissions to read from this Channel topic: secret')
  })
})
