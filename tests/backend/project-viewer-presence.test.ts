import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'

// A project's viewer in its private Realtime room `project:<id>`, attacking with raw supabase-js:
// the viewer is seen there (presence, extension 'presence', policy "project members track
// presence in their room") but a document update it broadcasts, over the websocket or over REST,
// is refused and reaches nobody; the owner's own broadcast does reach the viewer, so silence
// means refusal, not a dead room. A signed-in stranger cannot join the room at all.

const PROJECT = '77777777-7777-4777-8777-777777777777'
const TOPIC = `project:${PROJECT}`
let server: TestServer
let owner: TestUser
let viewer: TestUser
let stranger: TestUser
const clients: SupabaseClient[] = []

beforeAll(async () => {
  server = await startTestServer()
  ;[owner, viewer, stranger] = await Promise.all([
    signUp(server, 'owner-presence@example.com'),
    signUp(server, 'viewer-presence@example.com'),
    signUp(server, 'stranger-presence@example.com'),
  ])
  await sql(server, "insert into public.studio_projects (id, user_id, name) values ($1, $2, 'Shared song')", [PROJECT, owner.id])
  await sql(server, "insert into public.project_members (project_id, user_id, role) values ($1, $2, 'viewer')", [PROJECT, viewer.id])
}, 60_000)
afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels()))
  await server?.close()
})

function client(user: TestUser): SupabaseClient {
  const c = createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket, timeout: 30_000 },
  })
  void c.realtime.setAuth(user.accessToken)
  clients.push(c)
  return c
}

/**
 * The app's room config (private, no echo), with presence under the creator's key. No ack: as on
 * hosted Realtime a refused broadcast gets no answer, so what counts is that nobody receives it.
 */
function room(user: TestUser, key: string): RealtimeChannel {
  return client(user).channel(TOPIC, {
    config: { private: true, broadcast: { self: false, ack: false }, presence: { key, enabled: true } },
  })
}

function join(channel: RealtimeChannel): Promise<{ status: string; error?: string }> {
  return new Promise((resolve) => {
    channel.subscribe((status, error) => {
      if (status !== 'CLOSED') resolve({ status, error: error?.message })
    })
  })
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) return false
    await new Promise((r) => setTimeout(r, 10))
  }
  return true
}
const settle = (ms = 500) => new Promise((r) => setTimeout(r, ms))

describe("a project viewer in the project's room", () => {
  it('is seen by the owner through presence, while its document broadcasts are refused and reach no one', async () => {
    const ownerRoom = room(owner, 'owner')
    const ownerGot: unknown[] = []
    ownerRoom.on('broadcast', { event: 'yjs' }, (m) => ownerGot.push(m.payload))
    expect(await join(ownerRoom)).toMatchObject({ status: 'SUBSCRIBED' })

    const viewerRoom = room(viewer, 'viewer')
    const viewerGot: unknown[] = []
    viewerRoom.on('broadcast', { event: 'yjs' }, (m) => viewerGot.push(m.payload))
    expect(await join(viewerRoom)).toMatchObject({ status: 'SUBSCRIBED' })

    // Presence: allowed, and the owner sees the viewer with what it tracked.
    expect(await viewerRoom.track({ name: 'viewerperson', colour: '#3fa' })).toBe('ok')
    expect(await until(() => 'viewer' in ownerRoom.presenceState())).toBe(true)
    expect(ownerRoom.presenceState().viewer).toEqual([expect.objectContaining({ name: 'viewerperson', colour: '#3fa' })])

    // A document update from the viewer over the websocket: refused, and nobody receives it.
    await viewerRoom.send({ type: 'broadcast', event: 'yjs', payload: { b: 'AAECAwQF' } })
    // The same over REST (what channel.send falls back to before joining), as the viewer.
    const rest = await fetch(`${server.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${viewer.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: TOPIC, event: 'yjs', payload: { b: 'BAUGBwgJ' }, private: true }] }),
    })
    // As hosted: accepted (202), the messages the caller may not send dropped.
    expect(rest.status).toBe(202)
    // channel.httpSend's form says so outright.
    const direct = await fetch(`${server.url}/realtime/v1/api/broadcast/${encodeURIComponent(TOPIC)}/events/yjs?private=true`, {
      method: 'POST',
      headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${viewer.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ b: 'EBESExQV' }),
    })
    expect(direct.status).toBe(403)
    await settle()
    expect(ownerGot).toEqual([])

    // The room works: the owner's broadcast reaches the viewer, and the owner is present too.
    expect(await ownerRoom.send({ type: 'broadcast', event: 'yjs', payload: { b: 'CgsMDQ4P' } })).toBe('ok')
    expect(await until(() => viewerGot.length === 1)).toBe(true)
    expect(viewerGot).toEqual([{ b: 'CgsMDQ4P' }])
    expect(await ownerRoom.track({ name: 'ownerperson' })).toBe('ok')
    expect(await until(() => 'owner' in viewerRoom.presenceState())).toBe(true)

    // Leaving is seen as well.
    expect(await viewerRoom.untrack()).toBe('ok')
    expect(await until(() => !('viewer' in ownerRoom.presenceState()))).toBe(true)
  })

  it('refuses a signed-in stranger both the room and presence in it', async () => {
    const strangerRoom = room(stranger, 'stranger')
    const joined = await join(strangerRoom)
    expect(joined.status).not.toBe('SUBSCRIBED')
    expect(joined.error ?? '').toMatch(/permission|unauthori[sz]ed/i)
  })
})
