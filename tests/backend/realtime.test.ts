import { createClient, type RealtimeChannel, type RealtimePostgresChangesPayload, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { until, settle } from './support/waiting.ts'
import { startPostgresCluster, type PostgresCluster } from './support/postgres-cluster.ts'
import { establishedListener } from './support/trust.ts'

// Contract test of the local Realtime service (supabase/local/realtime/) through the unchanged,
// pinned supabase-js 2.109 in Node (transport: ws): join with the access token, postgres_changes
// with filters and RLS per subscriber, heartbeat, access_token updates, leave. Every frame the
// client sends is recorded so the test also states what the protocol looks like.

type Row = Record<string, unknown>
type Change = RealtimePostgresChangesPayload<Row>

/** ws, recording the frames supabase-js sends. */
const sent: unknown[] = []
class RecordingWebSocket extends WebSocket {
  override send(data: unknown, ...rest: unknown[]) {
    if (typeof data === 'string') sent.push(JSON.parse(data))
    return (super.send as (...a: unknown[]) => void)(data, ...rest)
  }
}

function client(server: TestServer, user?: TestUser): SupabaseClient {
  const c = createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: RecordingWebSocket as unknown as typeof globalThis.WebSocket, heartbeatIntervalMs: 300 },
  })
  if (user) c.realtime.setAuth(user.accessToken)
  return c
}

/** Subscribes and resolves once the server answered the join; `events` collects what arrives. */
async function subscribe(
  c: SupabaseClient,
  name: string,
  filters: { event: '*' | 'INSERT' | 'UPDATE' | 'DELETE'; table: string; filter?: string }[],
) {
  const events: Change[] = []
  let channel: RealtimeChannel = c.channel(name)
  for (const f of filters)
    channel = channel.on('postgres_changes', { event: f.event as '*', schema: 'public', table: f.table, filter: f.filter }, (p: Change) =>
      events.push(p),
    )
  await new Promise<void>((resolve, reject) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED') resolve()
      else if (status !== 'CLOSED') reject(error ?? new Error(status))
    })
  })
  return { channel, events }
}

// Generous under CI load; the 2 s a user may wait is shown in the browser (tests/e2e/comments.spec.ts).

describe.each(['PGlite', 'PostgreSQL 15'] as const)('Realtime postgres_changes through supabase-js 2.109 on %s', (database) => {
  let server: TestServer | undefined
  let cluster: PostgresCluster | undefined
  let skip = ''
  let alice: TestUser
  let bob: TestUser
  const clients: SupabaseClient[] = []
  const make = (user?: TestUser) => {
    const c = client(server!, user)
    clients.push(c)
    return c
  }

  beforeAll(async () => {
    if (database === 'PostgreSQL 15') {
      const started = await startPostgresCluster()
      if (typeof started === 'string') {
        skip = started
        return
      }
      cluster = started
      server = await startTestServer({ databaseUrl: cluster.url })
    } else server = await startTestServer()
    alice = await signUp(server, `alice-${database.length}@example.com`, 'pass-word', 'alice')
    bob = await signUp(server, `bob-${database.length}@example.com`, 'pass-word', 'bob')
    await rpc(server, alice.accessToken, 'init_user_tokens')
    await rpc(server, bob.accessToken, 'init_user_tokens')
  }, 90_000)
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.removeAllChannels()))
    await server?.close()
    cluster?.stop()
  })

  it("joins with the token and delivers a song's comments, replies and likes to another user; deletes by key", async (context) => {
    if (!server) return context.skip(skip)
    sent.length = 0
    const { events } = await subscribe(make(bob), 'song:neon-drift', [
      { event: '*', table: 'comments', filter: 'song_id=eq.neon-drift' },
      { event: '*', table: 'comment_likes', filter: 'song_id=eq.neon-drift' },
    ])
    const join = sent.find((f) => Array.isArray(f) && f[3] === 'phx_join') as [string, string, string, string, Row]
    expect(join[2]).toBe('realtime:song:neon-drift')
    expect(join[4]).toMatchObject({
      access_token: bob.accessToken,
      config: {
        postgres_changes: [
          { event: '*', schema: 'public', table: 'comments', filter: 'song_id=eq.neon-drift' },
          { event: '*', schema: 'public', table: 'comment_likes', filter: 'song_id=eq.neon-drift' },
        ],
      },
    })

    const posted = (await rpc(server, alice.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'live <b>hello</b>' })).json
      .comment
    expect(await until(() => events.some((e) => e.eventType === 'INSERT' && e.new.id === posted.id))).toBe(true)
    const insert = events.find((e) => e.eventType === 'INSERT')!
    expect(insert).toMatchObject({
      schema: 'public',
      table: 'comments',
      new: { id: posted.id, body: 'live <b>hello</b>', user_id: alice.id, song_id: 'neon-drift', like_count: 0 },
    })

    // Another song's comment does not arrive.
    await rpc(server, alice.accessToken, 'post_comment', { p_song_id: 'orbital-haze', p_body: 'elsewhere' })
    const reply = (
      await rpc(server, alice.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'a reply', p_parent_id: posted.id })
    ).json.comment
    expect(await until(() => events.some((e) => e.eventType === 'INSERT' && e.new.id === reply.id && e.new.parent_id === posted.id))).toBe(
      true,
    )
    await rpc(server, alice.accessToken, 'set_comment_like', { p_comment_id: posted.id, p_liked: true })
    expect(
      await until(() => events.some((e) => e.table === 'comment_likes' && e.eventType === 'INSERT' && e.new.comment_id === posted.id)),
    ).toBe(true)
    expect(await until(() => events.some((e) => e.eventType === 'UPDATE' && e.new.id === posted.id && e.new.like_count === 1))).toBe(true)
    // As on hosted Realtime, a DELETE is matched on the old row's replica identity (the primary key
    // here): the song_id filter cannot match it, the unfiltered binding gets it with the old key only.
    const deletions = await subscribe(make(bob), 'comment-deletions', [{ event: 'DELETE', table: 'comments' }])
    await rpc(server, alice.accessToken, 'delete_comment', { p_comment_id: reply.id })
    expect(await until(() => deletions.events.some((e) => e.eventType === 'DELETE' && e.old.id === reply.id))).toBe(true)
    expect(deletions.events.find((e) => e.eventType === 'DELETE')!.old).toEqual({ id: reply.id })
    await settle(300)
    expect(events.some((e) => e.eventType === 'DELETE')).toBe(false)
    expect(events.some((e) => e.new && (e.new as Row).song_id === 'orbital-haze')).toBe(false)
  })

  it(
    'respects RLS per subscriber: a vote reaches its voter, not another user; ' + 'access_token updates switch who is served',
    async (context) => {
      if (!server) return context.skip(skip)
      // Voting power comes from a trusted, established listener's balance when the proposal is created
      // (supabase/schemas/trust.sql, supabase/schemas/governance.sql).
      await establishedListener(server, alice.id)
      await sql(server, 'update public.user_tokens set balance = 250 where user_id = $1', [alice.id])
      const [proposal] = await sql<{ id: string }>(
        server,
        "insert into public.proposals (author_id, author_name, title, description, category, ends_at) values ($1, 'alice', " +
          "'T', 'D', 'other', now() + interval '2 days') returning id",
        [alice.id],
      )
      const mine = await subscribe(make(alice), 'votes-a', [{ event: 'INSERT', table: 'votes' }])
      const theirs = await subscribe(make(bob), 'votes-b', [{ event: 'INSERT', table: 'votes' }])
      const tallies = await subscribe(make(), 'tallies-anon', [{ event: 'UPDATE', table: 'proposals', filter: `id=eq.${proposal!.id}` }])
      await rpc(server, alice.accessToken, 'cast_vote', { p_proposal_id: proposal!.id, p_choice: 'for' })
      expect(await until(() => mine.events.length === 1)).toBe(true)
      expect(mine.events[0]!.new).toMatchObject({ user_id: alice.id, power: 200, choice: 'for' })
      expect(await until(() => tallies.events.some((e) => (e.new as Row).votes_for === 200))).toBe(true)
      await settle()
      expect(theirs.events).toEqual([])

      // Bob's client switches to Alice's token (a refreshed session does the same): now her rows reach it.
      sent.length = 0
      await clients.at(-2)!.realtime.setAuth(alice.accessToken)
      expect(await until(() => sent.some((f) => Array.isArray(f) && f[3] === 'access_token'))).toBe(true)
      await settle(100)
      const [second] = await sql<{ id: string }>(
        server,
        "insert into public.proposals (author_id, author_name, title, description, category, ends_at) values ($1, 'alice', " +
          "'T2', 'D', 'other', now() + interval '2 days') returning id",
        [alice.id],
      )
      await rpc(server, alice.accessToken, 'cast_vote', { p_proposal_id: second!.id, p_choice: 'against' })
      expect(await until(() => theirs.events.length === 1)).toBe(true)
      expect(theirs.events[0]!.new).toMatchObject({ user_id: alice.id, choice: 'against' })
    },
  )

  it('answers heartbeats, and after leave nothing more arrives', async (context) => {
    if (!server) return context.skip(skip)
    sent.length = 0
    const c = make(bob)
    const { channel, events } = await subscribe(c, 'leaver', [{ event: 'INSERT', table: 'comments' }])
    const beats: string[] = []
    c.realtime.onHeartbeat((status) => beats.push(status))
    expect(await until(() => beats.includes('ok'))).toBe(true)
    expect(sent.some((f) => Array.isArray(f) && f[2] === 'phoenix' && f[3] === 'heartbeat')).toBe(true)
    expect(await channel.unsubscribe()).toBe('ok')
    expect(sent.some((f) => Array.isArray(f) && f[3] === 'phx_leave')).toBe(true)
    await rpc(server, alice.accessToken, 'post_comment', { p_song_id: 'rainy-terminal', p_body: 'after leave' })
    await settle()
    expect(events).toEqual([])
  })

  it('after a dropped connection the client rejoins by itself and changes flow again', async (context) => {
    if (!server) return context.skip(skip)
    const c = make(bob)
    const statuses: string[] = []
    const events: Change[] = []
    await new Promise<void>((resolve) => {
      c.channel('rejoiner')
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'comments', filter: 'song_id=eq.low-tide-memory' },
          (p: Change) => events.push(p),
        )
        .subscribe((status) => {
          statuses.push(status)
          if (status === 'SUBSCRIBED') resolve()
        })
    })
    server.realtime.dropConnections()
    expect(await until(() => statuses.filter((s) => s === 'SUBSCRIBED').length === 2, 10_000)).toBe(true)
    await rpc(server, alice.accessToken, 'post_comment', { p_song_id: 'low-tide-memory', p_body: 'after the drop' })
    expect(await until(() => events.some((e) => (e.new as Row).body === 'after the drop'))).toBe(true)
  })

  it('refuses a socket without a valid apikey and a join with a bad token, and keeps serving', async (context) => {
    if (!server) return context.skip(skip)
    const url = `${server.url.replace('http', 'ws')}/realtime/v1/websocket?vsn=2.0.0`
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${url}&apikey=not-a-jwt`)
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => resolve(101))
    })
    expect(status).toBe(401)
    const ws = new WebSocket(`${url}&apikey=${server.keys.anonKey}`)
    await new Promise((r) => ws.once('open', r))
    const answer = new Promise<unknown[]>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))))
    ws.send(JSON.stringify(['1', '1', 'realtime:x', 'phx_join', { config: { postgres_changes: [] }, access_token: 'forged.token.here' }]))
    expect(await answer).toEqual(['1', '1', 'realtime:x', 'phx_reply', { status: 'error', response: { reason: 'JWT is malformed' } }])
    ws.close()
    const c = make(alice)
    await subscribe(c, 'still-alive', [{ event: 'INSERT', table: 'comments' }])
  })
})
