import { createClient, type RealtimePostgresChangesPayload, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { listenHistory } from './support/trust.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'

// Live notifications: written by the server when the event happens and the user wants it
// (Settings › Notifications), delivered by Realtime to that user only.

let server: TestServer
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await signUp(server, 'alice-n@example.com', 'alice-pass-1', 'alice_n')
  bob = await signUp(server, 'bob-n@example.com', 'bob-pass-1', 'bob_n')
  await rpc(server, alice.accessToken, 'init_user_tokens')
  await rpc(server, bob.accessToken, 'init_user_tokens')
}, 60_000)
afterAll(() => server?.close())

const notices = (user: TestUser) =>
  sql<{ kind: string; title: string; body: string; link: string | null }>(
    server,
    'select kind, title, body, link from public.notifications where user_id = $1 order by created_at',
    [user.id],
  )
const clear = () => sql(server, 'delete from public.notifications')
const prefs = (user: TestUser, values: Record<string, boolean>) =>
  api(server, '/rest/v1/user_settings', {
    token: user.accessToken,
    body: { user_id: user.id, ...values },
    headers: { Prefer: 'resolution=merge-duplicates,return=minimal' },
  })

const NOTICE = '77777777-7777-4777-8777-777777777777'
const CASES: Record<string, RlsCase> = {
  notifications: {
    target: () => `id=eq.${NOTICE}`,
    insert: ({ owner: { id } }) => ({ user_id: id, kind: 'follower', title: 'forged', body: 'forged' }),
    update: { title: 'changed' },
    inserted: ({ exists }) => exists("select 1 from public.notifications where title = 'forged'"),
    untouched: ({ exists }) => exists("select 1 from public.notifications where id = $1 and title = 'Original'", [NOTICE]),
    reset: async ({ q, owner: { id } }) => {
      await q("delete from public.notifications where title in ('forged', 'Original')")
      await q("insert into public.notifications (id, user_id, kind, title, body) values ($1, $2, 'follower', 'Original', 'x')", [
        NOTICE,
        id,
      ])
    },
    expect: {
      anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'allowed' },
      other: { select: 'none', insert: 'denied', update: 'denied', delete: 'none' },
    },
  },
}

describe('RLS matrix of notifications', () => {
  rlsMatrixTests(CASES, () => rlsContext(server, alice, bob))
})

describe('what the server writes', () => {
  it('a reply to my comment, not my own reply; none once I turned replies off', async () => {
    await clear()
    const top = await rpc(server, alice.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'Great drop' })
    expect(top.status, top.text).toBe(200)
    const topId = top.json.comment?.id ?? top.json.id
    await rpc(server, alice.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'me again', p_parent_id: topId })
    await rpc(server, bob.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'Agreed, the bass!', p_parent_id: topId })
    expect(await notices(alice)).toEqual([
      { kind: 'reply', title: 'New reply to your comment', body: 'bob_n: Agreed, the bass!', link: '/song/neon-drift' },
    ])
    expect(await notices(bob)).toEqual([])
    expect((await prefs(alice, { notify_replies: false })).status).toBeLessThan(300)
    await rpc(server, bob.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'one more', p_parent_id: topId })
    expect((await notices(alice)).length).toBe(1)
    await prefs(alice, { notify_replies: true })
  })

  it('a new follower', async () => {
    await clear()
    const follow = await api(server, '/rest/v1/follows', { token: bob.accessToken, body: { follower_id: bob.id, following_id: alice.id } })
    expect(follow.status, follow.text).toBe(201)
    expect(await notices(alice)).toEqual([{ kind: 'follower', title: 'New follower', body: 'bob_n followed you', link: '/user/bob_n' }])
  })

  it('a proposal I voted on closes: every voter hears the result', async () => {
    await clear()
    await sql(server, 'update public.user_tokens set balance = 300 where user_id in ($1, $2)', [alice.id, bob.id])
    // Only accounts trusted when a proposal is created vote on it (the trust rule).
    await listenHistory(server, bob.id)
    const created = await rpc(server, alice.accessToken, 'create_proposal', {
      p_title: 'More genres',
      p_description: 'Add jazz',
      p_category: 'community',
      p_ends_at: new Date(Date.now() + 86_400_000).toISOString(),
      p_attempt_key: crypto.randomUUID(),
    })
    expect(created.status, created.text).toBe(200)
    const id = created.json.id ?? created.json.proposal?.id
    expect((await rpc(server, bob.accessToken, 'cast_vote', { p_proposal_id: id, p_choice: 'for' })).status).toBe(200)
    await sql(
      server,
      "update public.proposals set created_at = now() - interval '2 days', ends_at = now() - interval '1 minute' where id = $1",
      [id],
    )
    await sql(server, 'select public.close_due_proposals()')
    const [notice] = await notices(bob)
    expect(notice).toMatchObject({ kind: 'vote_closed', title: 'Proposal closed', link: '/app/governance' })
    expect(notice!.body).toMatch(/^"More genres" (passed|was rejected)$/)
  })

  it('my mint completed', async () => {
    await clear()
    const [chain] = await sql<{ name: string }>(server, 'select name from public.blockchain_configs order by name limit 1')
    const [req] = await sql<{ id: string }>(
      server,
      `insert into public.mint_requests (user_id, client_key, blockchain, metadata, recipient, royalties)
      values ($1, 'notice-test-1', $2, '{"name":"Neon Token"}', '0x0000000000000000000000000000000000000001', 5) returning id`,
      [alice.id, chain!.name],
    )
    await sql(server, "update public.mint_requests set status = 'completed', token_id = '7' where id = $1", [req!.id])
    expect(await notices(alice)).toEqual([
      { kind: 'mint_completed', title: 'Mint completed', body: `"Neon Token" is on ${chain!.name} as token #7`, link: '/app/wallet' },
    ])
  })
})

describe('delivery', () => {
  function realtimeClient(user: TestUser): SupabaseClient {
    const c = createClient(server.url, server.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    })
    c.realtime.setAuth(user.accessToken)
    return c
  }

  it("arrives live to its user only, even for someone subscribing to another user's filter", async () => {
    const received: Record<string, RealtimePostgresChangesPayload<Record<string, unknown>>[]> = { alice: [], bob: [] }
    const subscribe = (c: SupabaseClient, who: 'alice' | 'bob') =>
      new Promise<void>((resolve, reject) => {
        c.channel(`n-${who}`)
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notifications', filter: `user_id=eq.${alice.id}` }, (p) =>
            received[who]!.push(p),
          )
          .subscribe((status, error) => (status === 'SUBSCRIBED' ? resolve() : status !== 'CLOSED' && reject(error ?? new Error(status))))
      })
    const a = realtimeClient(alice)
    const b = realtimeClient(bob)
    await Promise.all([subscribe(a, 'alice'), subscribe(b, 'bob')])
    await sql(server, 'delete from public.follows')
    // Bob already followed Alice today (one notice per pair per day): forget that day's notice.
    await sql(server, 'delete from public.follow_notices')
    await api(server, '/rest/v1/follows', { token: bob.accessToken, body: { follower_id: bob.id, following_id: alice.id } })
    const end = Date.now() + 2000
    while (received.alice!.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    expect(received.alice!.map((p) => (p.new as { body: string }).body)).toEqual(['bob_n followed you'])
    await new Promise((r) => setTimeout(r, 300))
    expect(received.bob).toEqual([])
    await a.removeAllChannels()
    await b.removeAllChannels()
  })
})
