import { createClient, type RealtimeChannel, type RealtimePostgresChangesPayload, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../supabase/local/core/jwt.ts'
import { signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { until, settle } from './support/waiting.ts'

// Private channels as an outsider sees them: Realtime Authorization (RLS on realtime.messages,
// realtime.topic()) decides who joins a topic, sends to it over the websocket or REST, and tracks
// presence there, as on hosted Realtime (lib/realtime/tenants/authorization.ex of
// github.com/supabase/realtime). The policies are the shape a project's topics get (a membership table read
// by the policy): members with `can_write` send, other members only listen. Then postgres_changes
// filters with every operator hosted serves, and DELETE events matched on the old row's replica
// identity. Everything goes through the unchanged supabase-js 2.109 or raw HTTP.

type Row = Record<string, unknown>
let server: TestServer
let alice: TestUser // member, may write
let carol: TestUser // member, read only
let bob: TestUser // signed in, not a member
const clients: SupabaseClient[] = []
const TOPIC = 'project:7f1c'

function client(user?: TestUser): SupabaseClient {
  const c = createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  })
  if (user) void c.realtime.setAuth(user.accessToken)
  clients.push(c)
  return c
}

/** Subscribes; resolves with the final status and error message (SUBSCRIBED, or why not). */
function join(channel: RealtimeChannel): Promise<{ status: string; error?: string }> {
  return new Promise((resolve) => {
    channel.subscribe((status, error) => {
      if (status !== 'CLOSED') resolve({ status, error: error?.message })
    })
  })
}

const broadcasts = (channel: RealtimeChannel) => {
  const got: Row[] = []
  channel.on('broadcast', { event: 'edit' }, (m) => got.push(m.payload as Row))
  return got
}

beforeAll(async () => {
  server = await startTestServer()
  ;[alice, carol, bob] = await Promise.all([
    signUp(server, 'alice-rt@example.com'),
    signUp(server, 'carol-rt@example.com'),
    signUp(server, 'bob-rt@example.com'),
  ])
  await server.db.exec(`
    create table public.rt_members (topic text not null, user_id uuid not null, can_write boolean not null default false,
      primary key (topic, user_id));
    grant select on public.rt_members to authenticated;
    create policy "members read their topics" on realtime.messages for select to authenticated
      using (exists (select 1 from public.rt_members m where m.topic = (select realtime.topic()) and m.user_id = (select auth.uid())));
    create policy "writers send on their topics" on realtime.messages for insert to authenticated
      with check (exists (select 1 from public.rt_members m where m.topic = (select realtime.topic())
        and m.user_id = (select auth.uid()) and m.can_write));
    create table public.rt_items (id integer primary key, label text, n integer, flag boolean);
    alter table public.rt_items enable row level security;
    create policy "everyone reads items" on public.rt_items for select to anon, authenticated using (true);
    grant select on public.rt_items to anon, authenticated;
    create trigger rt_items_changes after insert or update or delete on public.rt_items
      for each row execute function cube_realtime.notify_change();
  `)
  await sql(server, 'insert into public.rt_members (topic, user_id, can_write) values ($1, $2, true), ($1, $3, false)', [
    TOPIC,
    alice.id,
    carol.id,
  ])
}, 60_000)
afterAll(async () => {
  await Promise.all(clients.map((c) => c.removeAllChannels()))
  await server?.close()
})

describe('private channels as an outsider', () => {
  it('a signed-in non-member and a visitor cannot join; a member can', async () => {
    const refused = `Unauthorized: You do not have permissions to read from this Channel topic: ${TOPIC}`
    expect(await join(client(bob).channel(TOPIC, { config: { private: true } }))).toEqual({ status: 'CHANNEL_ERROR', error: refused })
    expect(await join(client().channel(TOPIC, { config: { private: true } }))).toEqual({ status: 'CHANNEL_ERROR', error: refused })
    expect(await join(client(alice).channel(TOPIC, { config: { private: true } }))).toEqual({ status: 'SUBSCRIBED', error: undefined })
    // realtime.messages is not reachable over REST (only public is exposed, as on hosted by default).
    for (const method of ['GET', 'POST']) {
      const response = await fetch(`${server.url}/rest/v1/messages`, {
        method,
        headers: {
          apikey: server.keys.anonKey,
          Authorization: `Bearer ${bob.accessToken}`,
          'Accept-Profile': 'realtime',
          'Content-Profile': 'realtime',
        },
        ...(method === 'POST' ? { body: JSON.stringify({ topic: TOPIC, extension: 'broadcast' }) } : {}),
      })
      expect([response.status, ((await response.json()) as Row).code]).toEqual([406, 'PGRST106'])
    }
  })

  it('a non-member cannot send to the topic over the websocket: the public topic of the same name is another topic', async () => {
    const member = client(alice).channel(TOPIC, { config: { private: true } })
    const got = broadcasts(member)
    expect((await join(member)).status).toBe('SUBSCRIBED')
    const outsider = client(bob).channel(TOPIC, { config: { broadcast: { ack: true } } })
    expect((await join(outsider)).status).toBe('SUBSCRIBED')
    expect(await outsider.send({ type: 'broadcast', event: 'edit', payload: { forged: true } })).toBe('ok')
    // A raw socket pushing to the private topic without having joined it is answered "unmatched topic".
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/realtime/v1/websocket?vsn=2.0.0&apikey=${server.keys.anonKey}`)
    await new Promise((r) => ws.once('open', r))
    const answer = new Promise<unknown>((r) => ws.once('message', (d) => r(JSON.parse(d.toString()))))
    ws.send(JSON.stringify([null, '1', `realtime:${TOPIC}`, 'broadcast', { type: 'broadcast', event: 'edit', payload: { forged: 2 } }]))
    expect(await answer).toEqual([
      null,
      '1',
      `realtime:${TOPIC}`,
      'phx_reply',
      { status: 'error', response: { reason: 'unmatched topic' } },
    ])
    ws.close()
    await settle()
    expect(got).toEqual([])
  })

  it('a read-only member receives but cannot send or track; a writer can', async () => {
    // Presence enabled at join: as on hosted, a private channel joined without it is not sent
    // presence, and its presence write is settled (refused) by its first broadcast's check.
    const writer = client(alice).channel(TOPIC, { config: { private: true, broadcast: { ack: true }, presence: { enabled: true } } })
    const reader = client(carol).channel(TOPIC, { config: { private: true, broadcast: { ack: true }, presence: { enabled: true } } })
    const toWriter = broadcasts(writer)
    const toReader = broadcasts(reader)
    expect((await join(writer)).status).toBe('SUBSCRIBED')
    expect((await join(reader)).status).toBe('SUBSCRIBED')
    // As hosted: a broadcast the INSERT policies refuse is dropped and never acknowledged.
    expect(await reader.send({ type: 'broadcast', event: 'edit', payload: { by: 'carol' } }, { timeout: 600 })).toBe('timed out')
    expect(await reader.track({ by: 'carol' })).toBe('error')
    expect(await writer.send({ type: 'broadcast', event: 'edit', payload: { by: 'alice' } })).toBe('ok')
    expect(await until(() => toReader.length === 1)).toBe(true)
    expect(toReader).toEqual([{ by: 'alice' }])
    expect(await writer.track({ by: 'alice' })).toBe('ok')
    expect(await until(() => Object.keys(reader.presenceState()).length === 1)).toBe(true)
    await settle()
    expect(toWriter).toEqual([])
  })

  it('over REST (httpSend and the batch endpoint): a non-member and a visitor are refused, a writer is delivered', async () => {
    const member = client(alice).channel(TOPIC, { config: { private: true } })
    const got = broadcasts(member)
    expect((await join(member)).status).toBe('SUBSCRIBED')
    await expect(
      client(bob)
        .channel(TOPIC, { config: { private: true } })
        .httpSend('edit', { forged: 'bob' }),
    ).rejects.toThrow('Unauthorized')
    await expect(
      client()
        .channel(TOPIC, { config: { private: true } })
        .httpSend('edit', { forged: 'visitor' }),
    ).rejects.toThrow('Unauthorized')
    await expect(
      client(carol)
        .channel(TOPIC, { config: { private: true } })
        .httpSend('edit', { forged: 'reader' }),
    ).rejects.toThrow('Unauthorized')
    const batch = (token: string, payload: Row) =>
      fetch(`${server.url}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ messages: [{ topic: TOPIC, event: 'edit', payload, private: true }] }),
      })
    // As hosted's batch endpoint: accepted, and the messages the caller may not send are dropped.
    expect((await batch(bob.accessToken, { forged: 'batch' })).status).toBe(202)
    const forgedToken = await signJwt({ sub: alice.id, role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 60 }, 'not-the-secret')
    const forged = await batch(forgedToken, { forged: 'signature' })
    expect([forged.status, await forged.json()]).toEqual([401, { message: 'Unauthorized' }])
    await settle()
    expect(got).toEqual([])
    expect(
      await client(alice)
        .channel(TOPIC, { config: { private: true } })
        .httpSend('edit', { by: 'alice-rest' }),
    ).toEqual({ success: true })
    expect((await batch(alice.accessToken, { by: 'alice-batch' })).status).toBe(202)
    expect(await until(() => got.length === 2)).toBe(true)
    expect(got).toEqual([{ by: 'alice-rest' }, { by: 'alice-batch' }])
  })

  it('removing the row that grants access refuses new joins; a joined socket keeps it until its token is refreshed', async () => {
    const dave = await signUp(server, 'dave-rt@example.com')
    await sql(server, 'insert into public.rt_members (topic, user_id) values ($1, $2)', [TOPIC, dave.id])
    const c = client(dave)
    const joined = c.channel(TOPIC, { config: { private: true } })
    const got = broadcasts(joined)
    const system: Row[] = []
    joined.on('system', {}, (m) => system.push(m as Row))
    expect((await join(joined)).status).toBe('SUBSCRIBED')
    await sql(server, 'delete from public.rt_members where user_id = $1', [dave.id])
    expect(await join(client(dave).channel(TOPIC, { config: { private: true } }))).toMatchObject({ status: 'CHANNEL_ERROR' })
    // As hosted: policies are read at join and again when the token changes, not per message.
    await client(alice)
      .channel(TOPIC, { config: { private: true } })
      .httpSend('edit', { n: 1 })
    expect(await until(() => got.length === 1)).toBe(true)
    const refreshed = await signJwt(
      { sub: dave.id, role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 3600, n: 2 },
      server.keys.jwtSecret,
    )
    await c.realtime.setAuth(refreshed)
    expect(await until(() => system.some((m) => m.status === 'error'))).toBe(true)
    expect(system.find((m) => m.status === 'error')).toMatchObject({
      extension: 'system',
      message: `You no longer have permission to read from this Channel topic: ${TOPIC}`,
    })
    await client(alice)
      .channel(TOPIC, { config: { private: true } })
      .httpSend('edit', { n: 2 })
    await settle()
    expect(got).toEqual([{ n: 1 }])
  })
})

describe('postgres_changes filters and DELETE events as hosted serves them', () => {
  type Change = RealtimePostgresChangesPayload<Row>
  async function watch(filter: string, event: '*' | 'DELETE' = '*') {
    const changes: Change[] = []
    const system: Row[] = []
    const channel = client(bob)
      .channel(`items-${crypto.randomUUID()}`)
      .on('postgres_changes', { event: event as '*', schema: 'public', table: 'rt_items', filter }, (p: Change) => changes.push(p))
      .on('system', {}, (m) => system.push(m as Row))
    expect((await join(channel)).status).toBe('SUBSCRIBED')
    expect(await until(() => system.length > 0)).toBe(true)
    return { changes, system }
  }
  const ids = (changes: Change[]) => changes.map((c) => (c.new as Row).id).sort()

  it('like, ilike, is, match, imatch, isdistinct, in and not. are evaluated with the column types', async () => {
    const watched = {
      like: await watch('label=like.ab%'),
      ilike: await watch('label=ilike.AB%'),
      isTrue: await watch('flag=is.true'),
      isNull: await watch('label=is.null'),
      match: await watch('label=match.^a.c$'),
      imatch: await watch('label=imatch.^A.C$'),
      notIn: await watch('n=not.in.(1,2)'),
      distinct: await watch('label=isdistinct.abc'),
      numeric: await watch('n=gt.9,n=lte.100'),
    }
    await sql(
      server,
      `insert into public.rt_items (id, label, n, flag) values (1, 'abc', 1, true), (2, 'ABX', 10, false), (3, null, 2, null),
        (4, 'xbc', 100, true)`,
    )
    expect(await until(() => watched.numeric.changes.length === 2)).toBe(true)
    await settle()
    expect(ids(watched.like.changes)).toEqual([1])
    expect(ids(watched.ilike.changes)).toEqual([1, 2])
    expect(ids(watched.isTrue.changes)).toEqual([1, 4])
    expect(ids(watched.isNull.changes)).toEqual([3])
    expect(ids(watched.match.changes)).toEqual([1])
    expect(ids(watched.imatch.changes)).toEqual([1])
    expect(ids(watched.notIn.changes)).toEqual([2, 4])
    expect(ids(watched.distinct.changes)).toEqual([2, 3, 4])
    expect(ids(watched.numeric.changes)).toEqual([2, 4])
  })

  it("refuses an unknown operator and a column that is not there with hosted's system message", async () => {
    const unknown = await watch('label=foo.x')
    expect(unknown.system[0]).toMatchObject({
      extension: 'postgres_changes',
      status: 'error',
      message: 'Error parsing `filter` params: ["foo", "x"]',
    })
    const column = await watch('nope=eq.1')
    expect(column.system[0]).toMatchObject({ extension: 'postgres_changes', status: 'error' })
    expect(column.system[0]!.message).toMatch(/Exception: invalid column for filter nope$/)
    const value = await watch('n=eq.many')
    expect(value.system[0]!.message).toMatch(/invalid input syntax for type integer/)
    const ok = await watch('n=eq.1')
    expect(ok.system[0]).toMatchObject({ extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL' })
  })

  it('a filtered DELETE is matched on the replica identity: the key by default, every column with REPLICA IDENTITY FULL', async () => {
    await sql(server, "insert into public.rt_items (id, label, n) values (20, 'gone', 5), (21, 'gone', 6), (22, 'kept', 7)")
    const byKey = await watch('id=eq.20', 'DELETE')
    const byLabel = await watch('label=eq.gone', 'DELETE')
    await sql(server, 'delete from public.rt_items where id = 20')
    expect(await until(() => byKey.changes.length === 1)).toBe(true)
    expect(byKey.changes[0]).toMatchObject({ eventType: 'DELETE', old: { id: 20 } })
    // The default identity is the primary key: a filter on another column cannot match (hosted fails closed).
    await settle()
    expect(byLabel.changes).toEqual([])
    await sql(server, 'alter table public.rt_items replica identity full')
    await sql(server, 'delete from public.rt_items where id in (21, 22)')
    expect(await until(() => byLabel.changes.length === 1)).toBe(true)
    // RLS is on for the table, so as on hosted only the primary key of the old row is sent.
    expect(byLabel.changes[0]!.old).toEqual({ id: 21 })
    await settle()
    expect(byLabel.changes).toHaveLength(1)
  })
})
