import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js'
import { generate } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_FUNCTIONS } from '../../supabase/local/functions/registry.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, sql, supabaseClient, type TestServer } from './support/local-backend.ts'
import { listenHistory } from './support/trust.ts'

// docs/security.md item 3: an account with a verified TOTP factor must finish the second factor before
// its session may do anything. RLS already hid the tables from a password-only (aal1) session, but
// SECURITY DEFINER functions, edge functions and Storage did not ask: such a session could spend,
// vote, delegate, read private files and (an administrator's) grant admin. Every attack here uses
// the aal1 session an outsider gets from the password alone, through supabase-js or raw HTTP.

const FINISH_TWO_FACTOR = /Finish two-factor sign-in first/
/** Edge functions anyone may call without signing in; every other one must refuse aal1 sessions. */
const PUBLIC_EDGE_FUNCTIONS = ['chain-transaction', 'nft-metadata', 'server-clock']

interface MfaAccount {
  id: string
  email: string
  /** A password-only session: what a stolen password gives. */
  aal1: SupabaseClient
  aal1Token: string
  /** The owner's session after the second factor. */
  aal2: SupabaseClient
  aal2Token: string
}

const accessToken = async (c: SupabaseClient) => (await c.auth.getSession()).data.session!.access_token

async function mfaAccount(server: TestServer, name: string): Promise<MfaAccount> {
  const email = `${name}@example.com`
  const aal2 = supabaseClient(server)
  expect((await aal2.auth.signUp({ email, password: 'two-factor-pass', options: { data: { username: name } } })).error).toBeNull()
  const factor = (await aal2.auth.mfa.enroll({ factorType: 'totp' })).data!
  expect(
    (await aal2.auth.mfa.challengeAndVerify({ factorId: factor.id, code: await generate({ secret: factor.totp.secret }) })).error,
  ).toBeNull()
  const aal1 = supabaseClient(server)
  expect((await aal1.auth.signInWithPassword({ email, password: 'two-factor-pass' })).error).toBeNull()
  const id = (await aal1.auth.getSession()).data.session!.user.id
  return { id, email, aal1, aal1Token: await accessToken(aal1), aal2, aal2Token: await accessToken(aal2) }
}

const ledgerSum = async (server: TestServer, user: string) =>
  (await sql<{ n: number }>(server, 'select coalesce(sum(amount), 0)::int as n from public.token_ledger where user_id = $1', [user]))[0]!.n

describe.each(DATABASES)('an aal1 session of a two-factor account on %s', (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  let victim: MfaAccount
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    victim = await mfaAccount(server, `aalvictim${database.toLowerCase()}`)
    // An administrator with CUBE to spend: the most an attacker could get from the password.
    await sql(server, 'insert into public.administrators (user_id) values ($1)', [victim.id])
    expect((await rpc(server, victim.aal2Token, 'init_user_tokens')).status).toBe(200)
    await sql(server, 'update public.user_tokens set balance = 500 where user_id = $1', [victim.id])
  }, 120_000)
  afterAll(() => stop?.())

  it('is refused by every SQL function the API exposes to signed-in users (the list comes from the database catalogue)', async () => {
    const functions = await sql<{ name: string; args: string; definer: boolean }>(
      server,
      `select p.proname as name, coalesce(array_to_json(p.proargnames[1:p.pronargs])::text, '[]') as args, p.prosecdef as definer
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
          and has_function_privilege('authenticated', p.oid, 'execute')
        order by p.proname`,
    )
    // The CUBE-moving and account-changing ones are among them (a sanity check on the query).
    const names = functions.map((f) => f.name)
    for (const fn of [
      'spend_tokens',
      'cast_vote',
      'delegate_voting_power',
      'create_proposal',
      'admin_set_role',
      'delete_my_account',
      'init_user_tokens',
      'listen_start',
      'listen_report',
    ])
      expect(names).toContain(fn)
    expect(functions.filter((f) => f.definer).length).toBeGreaterThan(20)
    const before = await ledgerSum(server, victim.id)
    const let_through: string[] = []
    for (const fn of functions) {
      const args = Object.fromEntries((JSON.parse(fn.args) as string[]).map((a) => [a, null]))
      const answer = await rpc(server, victim.aal1Token, fn.name, args)
      if (answer.status !== 403 || answer.json?.code !== 'PT403' || !FINISH_TWO_FACTOR.test(answer.json?.message))
        let_through.push(`${fn.name}: ${answer.status} ${answer.text.slice(0, 120)}`)
    }
    expect(let_through).toEqual([])
    expect(await ledgerSum(server, victim.id)).toBe(before)
  }, 120_000)

  it('cannot spend, propose, vote, delegate or grant admin through supabase-js; nothing changes', async () => {
    const other = await mfaAccount(server, `aalother${database.toLowerCase()}`)
    const [proposal] = await sql<{ id: string }>(
      server,
      "insert into public.proposals (author_id, author_name, title, description, category, ends_at) values ($1, 'x', 'T', " +
        "'D', 'other', now() + interval '2 days') returning id",
      [other.id],
    )
    const before = await ledgerSum(server, victim.id)
    const attempts = {
      spend: await victim.aal1.rpc('spend_tokens', { p_amount: 10, p_reason: 'remix', p_ref: 'aal1-spend' }),
      propose: await victim.aal1.rpc('create_proposal', {
        p_title: 'aal1 proposal',
        p_description: 'from a password-only session',
        p_category: 'other',
        p_ends_at: new Date(Date.now() + 86_400_000).toISOString(),
      }),
      vote: await victim.aal1.rpc('cast_vote', { p_proposal_id: proposal!.id, p_choice: 'for' }),
      delegate: await victim.aal1.rpc('delegate_voting_power', { p_username: `aalother${database.toLowerCase()}` }),
      grantAdmin: await victim.aal1.rpc('admin_set_role', { p_email: other.email, p_admin: true }),
    }
    for (const [what, answer] of Object.entries(attempts)) {
      expect(answer.status, what).toBe(403)
      expect(answer.error?.message, what).toMatch(FINISH_TWO_FACTOR)
    }
    expect(await ledgerSum(server, victim.id)).toBe(before)
    expect(await sql(server, 'select 1 from public.votes where user_id = $1', [victim.id])).toEqual([])
    expect(await sql(server, 'select 1 from public.administrators where user_id = $1', [other.id])).toEqual([])
    expect(await sql(server, "select 1 from public.proposals where title = 'aal1 proposal'")).toEqual([])
  })

  it('reads and writes of tables are refused with the same message, not just filtered', async () => {
    const read = await victim.aal1.from('profiles').select('username').eq('user_id', victim.id)
    expect(read.status).toBe(403)
    expect(read.error?.message).toMatch(FINISH_TWO_FACTOR)
    const write = await victim.aal1.from('playlists').insert({ user_id: victim.id, name: 'aal1 list' })
    expect(write.status).toBe(403)
    // The same session after the second factor reads its own profile.
    expect((await victim.aal2.from('profiles').select('username').eq('user_id', victim.id)).data).toHaveLength(1)
  })

  it('cannot read, list, upload to or delete from a private Storage bucket', async () => {
    const bucket = 'studio-audio'
    const path = `${victim.id}/project.json`
    const body = new TextEncoder().encode('{"mix":"secret"}')
    expect((await victim.aal2.storage.from(bucket).upload(path, body, { contentType: 'application/json', upsert: true })).error).toBeNull()

    expect((await victim.aal1.storage.from(bucket).download(path)).data).toBeNull()
    expect((await victim.aal1.storage.from(bucket).list(victim.id)).data ?? []).toEqual([])
    expect(
      (await victim.aal1.storage.from(bucket).upload(`${victim.id}/planted.json`, body, { contentType: 'application/json' })).error,
    ).not.toBeNull()
    await victim.aal1.storage.from(bucket).remove([path])
    expect(
      await sql(server, 'select name from storage.objects where bucket_id = $1 and name like $2 order by name', [bucket, `${victim.id}/%`]),
    ).toEqual([{ name: path }])
    // The owner after the second factor still has the file.
    expect(await (await victim.aal2.storage.from(bucket).download(path)).data?.text()).toBe('{"mix":"secret"}')
  })

  it('is refused by every edge function that acts for a signed-in user (the list comes from the registry)', async () => {
    const signedIn = Object.keys(EDGE_FUNCTIONS).filter((name) => !PUBLIC_EDGE_FUNCTIONS.includes(name))
    expect(signedIn).toEqual(expect.arrayContaining(['init-user-tokens', 'mint', 'wallet-verify', 'ai-text', 'ai-test-connection']))
    const before = await ledgerSum(server, victim.id)
    const let_through: string[] = []
    for (const name of signedIn) {
      const answer = await api(server, `/functions/v1/${name}`, {
        token: victim.aal1Token,
        body: { prompt: 'hello', category: 'text', songId: 'neon-drift', blockchain: 'ethereum' },
      })
      if (answer.status !== 403 || !FINISH_TWO_FACTOR.test(answer.json?.error))
        let_through.push(`${name}: ${answer.status} ${answer.text.slice(0, 120)}`)
    }
    expect(let_through).toEqual([])
    expect(await ledgerSum(server, victim.id)).toBe(before)
    // The owner's aal2 session passes the same check.
    expect((await api(server, '/functions/v1/init-user-tokens', { token: victim.aal2Token, method: 'POST' })).status).toBe(200)
  })

  it('Realtime serves it no rows: the aal2 session of the same account gets its vote, the aal1 session does not', async () => {
    const voter = await mfaAccount(server, `aalrealtime${database.toLowerCase()}`)
    expect((await rpc(server, voter.aal2Token, 'init_user_tokens')).status).toBe(200)
    // A trusted account (the trust rule), so its balance carries voting power.
    await listenHistory(server, voter.id)
    await sql(server, 'update public.user_tokens set balance = 250 where user_id = $1', [voter.id])
    const [proposal] = await sql<{ id: string }>(
      server,
      "insert into public.proposals (author_id, author_name, title, description, category, ends_at) values ($1, 'x', " +
        "'RT', 'D', 'other', now() + interval '2 days') returning id",
      [voter.id],
    )
    const listen = async (c: SupabaseClient, name: string) => {
      const events: RealtimePostgresChangesPayload<Record<string, unknown>>[] = []
      c.realtime.setAuth(await accessToken(c))
      await new Promise<void>((resolve, reject) =>
        c
          .channel(name)
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'votes' }, (p) => events.push(p))
          .subscribe((status, error) => (status === 'SUBSCRIBED' ? resolve() : status !== 'CLOSED' && reject(error ?? new Error(status)))),
      )
      return events
    }
    const half = await listen(voter.aal1, `votes-aal1-${database}`)
    const full = await listen(voter.aal2, `votes-aal2-${database}`)
    expect((await voter.aal2.rpc('cast_vote', { p_proposal_id: proposal!.id, p_choice: 'for' })).error).toBeNull()
    const deadline = Date.now() + 5000
    while (full.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    await new Promise((r) => setTimeout(r, 300))
    expect(full.map((e) => (e.new as { user_id: string }).user_id)).toEqual([voter.id])
    expect(half).toEqual([])
    await voter.aal1.removeAllChannels()
    await voter.aal2.removeAllChannels()
  })

  it('an honest user still finishes the challenge from the aal1 session (auth stays reachable) and then uses everything', async () => {
    const honest = await mfaAccount(server, `aalhonest${database.toLowerCase()}`)
    expect((await api(server, '/auth/v1/user', { token: honest.aal1Token })).status).toBe(200)
    const factors = (await honest.aal1.auth.mfa.listFactors()).data!.totp
    const secret = (await sql<{ secret: string }>(server, 'select secret from auth.mfa_factors where id = $1', [factors[0]!.id]))[0]!.secret
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })
    expect((await honest.aal1.auth.mfa.challengeAndVerify({ factorId: factors[0]!.id, code })).error).toBeNull()
    const raised = await accessToken(honest.aal1)
    expect((await rpc(server, raised, 'init_user_tokens')).status).toBe(200)
    expect((await honest.aal1.from('profiles').select('username').eq('user_id', honest.id)).data).toEqual([
      { username: `aalhonest${database.toLowerCase()}` },
    ])
    expect((await api(server, '/functions/v1/init-user-tokens', { token: raised, method: 'POST' })).status).toBe(200)
  })

  it('accounts without a second factor are not asked for one', async () => {
    const plain = supabaseClient(server)
    expect(
      (
        await plain.auth.signUp({
          email: `aalplain${database}@example.com`,
          password: 'plain-pass-1',
          options: { data: { username: `aalplain${database.toLowerCase()}` } },
        })
      ).error,
    ).toBeNull()
    expect((await plain.rpc('init_user_tokens')).error).toBeNull()
    expect((await plain.from('profiles').select('username')).error).toBeNull()
  })
})
