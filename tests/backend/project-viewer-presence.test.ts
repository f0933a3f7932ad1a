import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { signUp, sql, startTestServer, signedInClient, type TestServer, type TestUser } from './support/local-backend.ts'
import { until, settle } from './support/waiting.ts'
import { createMixerStore } from '../../src/domain/studio/mixer-store.ts'
import { joinSharedProject } from '../../src/domain/studio/shared-project.ts'
import { peersOf } from '../../src/domain/studio/presence.ts'

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
    await settle(500)
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

  it("in the app's live session owner and viewer see each other and the viewer's selection; the viewer's edit stays its own", async () => {
    const signedIn = (user: TestUser) => signedInClient(server, user)
    const project = { id: PROJECT, name: 'Shared song' }
    const mine = createMixerStore(new Y.Doc())
    const kick = mine.getState().addTrack({ name: 'Kick', type: 'main', audioId: 'kick', duration: 2 })
    const ownerSession = joinSharedProject({
      db: await signedIn(owner),
      project,
      part: 'owner',
      name: 'theowner',
      store: mine,
      audio: null,
    })
    await ownerSession.ready
    // Stored: what a viewer, who cannot ask the room for it, catches up from (the poll leaves a loaded
    // machine its time; how fast is the collaboration bench's to say).
    await expect
      .poll(async () => (await sql(server, 'select 1 from public.project_updates where project_id = $1', [PROJECT])).length, {
        timeout: 5000,
      })
      .toBeGreaterThan(0)
    const theirs = createMixerStore(new Y.Doc())
    const viewerSession = joinSharedProject({
      db: await signedIn(viewer),
      project,
      part: 'viewer',
      name: 'theviewer',
      store: theirs,
      audio: null,
    })
    await viewerSession.ready
    await expect.poll(() => peersOf(ownerSession.awareness).map((p) => p.name), { timeout: 5000 }).toEqual(['theviewer'])
    await expect.poll(() => peersOf(viewerSession.awareness).map((p) => p.name), { timeout: 5000 }).toEqual(['theowner'])
    theirs.getState().select(kick.id)
    await expect.poll(() => peersOf(ownerSession.awareness)[0]?.selectedTrackId, { timeout: 5000 }).toBe(kick.id)
    // The viewer's own edit never reaches the owner.
    await expect.poll(() => theirs.getState().tracks.length, { timeout: 5000 }).toBe(1)
    theirs.getState().setControl(theirs.getState().tracks[0]!.id, 'volume', 3)
    await settle(500)
    expect(mine.getState().tracks[0]!.volume).toBe(70)
    await viewerSession.leave()
    await expect.poll(() => peersOf(ownerSession.awareness), { timeout: 5000 }).toEqual([])
    await ownerSession.leave()
  }, 30_000)

  it('refuses a signed-in stranger both the room and presence in it', async () => {
    const strangerRoom = room(stranger, 'stranger')
    const joined = await join(strangerRoom)
    expect(joined.status).not.toBe('SUBSCRIBED')
    expect(joined.error ?? '').toMatch(/permission|unauthori[sz]ed/i)
  })
})
