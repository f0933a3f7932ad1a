import type { RealtimeChannel } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import {
  api,
  fetchFrom,
  rpc,
  signUp,
  sql,
  startTestServer,
  supabaseClient,
  type TestServer,
  type TestUser,
} from './support/local-backend.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'
import { beginShareVisit, pageShown, redeemShareVisit, visitSharedPage } from './support/share-visit.ts'

// Shares (supabase/schemas/sharing.sql): sharing makes a link
// with an unguessable token and pays nothing; the sharer is paid when someone else opens it (another
// visitor, from another client address), once per link per UTC day, within the daily share cap,
// exactly once under concurrency, and sees pending → credited live. Different client addresses
// come from connecting from 127.0.0.2, 127.0.0.3, … (all of 127/8 is local on Linux); sign-ups and
// shares leave from 127.0.0.1.

const AMOUNTS: Record<string, number> = { twitter: 10, facebook: 10, copy_link: 5, qr: 15, share_now: 5 }
type Link = { id: string; token: string; item_type: string; item_id: string; platform: string; amount: number; status: string }
type Open = { credited: boolean; reason: string }

let n = 0
const unique = () => `${Date.now().toString(36)}-${++n}`

async function share(server: TestServer, user: TestUser, itemType: string, item: string, platform: string, from?: string): Promise<Link> {
  const r = await rpc(server, user.accessToken, 'share_create', { p_item_type: itemType, p_item_id: item, p_platform: platform }, from)
  expect(r.status, r.text).toBe(200)
  return r.json as Link
}
/** A visitor opens the shared page and stays on it (the page's proven visit: support/share-visit.ts). */
const open = (server: TestServer, token: string, from: string, user?: TestUser): Promise<Open> => visitSharedPage(server, token, from, user)
const wallet = async (server: TestServer, user: TestUser) =>
  (
    await sql<{ balance: number; sum: number }>(
      server,
      `select t.balance, (select coalesce(sum(amount), 0)::int from public.token_ledger where user_id = t.user_id) as sum
         from public.user_tokens t where t.user_id = $1`,
      [user.id],
    )
  )[0]!
/** balance = sum(ledger) and never negative, for everyone on the server. */
async function ledgerHolds(server: TestServer) {
  const broken = await sql(
    server,
    `select t.user_id from public.user_tokens t
      where t.balance < 0 or t.balance <> (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id)`,
  )
  expect(broken).toEqual([])
}
const newUser = async (server: TestServer, name: string) => {
  const u = await signUp(server, `${name}-${unique()}@example.com`, 'share-pass-1')
  expect((await rpc(server, u.accessToken, 'init_user_tokens')).status).toBe(200)
  return u
}

describe('shares are paid when someone else opens the link', () => {
  let server: TestServer
  let sharer: TestUser
  let friend: TestUser
  beforeAll(async () => {
    server = await startTestServer()
    sharer = await newUser(server, 'sharer')
    friend = await newUser(server, 'friend')
    // An established friend: accounts under a day old are the sharer's own (supabase/schemas/sharing.sql).
    await sql(server, "update auth.users set created_at = now() - interval '7 days' where id = $1", [friend.id])
  }, 60_000)
  afterAll(() => server?.close())

  it("the sharer's other devices and fresh second accounts are not someone else; an established account elsewhere is", async () => {
    const sharer = await newUser(server, 'phone-sharer')
    const link = await share(server, sharer, 'song', 'orbital-haze', 'facebook')
    // The sharer listened from a phone at 127.0.0.21 (the server saw that address for the account).
    await sql(server, "insert into public.account_clients (user_id, client_address) values ($1, '127.0.0.21') on conflict do nothing", [
      sharer.id,
    ])
    expect(await open(server, link.token, '127.0.0.21')).toEqual({ credited: false, reason: 'same_client' })
    // A second account made today, opening from yet another address, is the sharer's own.
    const puppet = await newUser(server, 'puppet')
    expect(await open(server, link.token, '127.0.0.22', puppet)).toEqual({ credited: false, reason: 'linked_account' })
    expect((await sql<{ status: string }>(server, 'select status from public.share_links where token = $1', [link.token]))[0]!.status).toBe(
      'pending',
    )
    // A week-old account elsewhere is someone else.
    const neighbour = await newUser(server, 'neighbour')
    await sql(server, "update auth.users set created_at = now() - interval '7 days' where id = $1", [neighbour.id])
    expect(await open(server, link.token, '127.0.0.23', neighbour)).toEqual({ credited: true, reason: 'credited' })
    await ledgerHolds(server)
  })

  it('clicking share pays nothing: the answer is a pending link with a 256-bit-looking token; sharing again gives it back', async () => {
    const before = await wallet(server, sharer)
    const link = await share(server, sharer, 'song', 'neon-drift', 'twitter')
    expect(link).toMatchObject({ item_type: 'song', item_id: 'neon-drift', platform: 'twitter', amount: 10, status: 'pending' })
    expect(link.token).toMatch(/^[0-9a-f]{64}$/)
    expect(await share(server, sharer, 'song', 'neon-drift', 'twitter')).toMatchObject({ token: link.token, status: 'pending' })
    const other = await share(server, sharer, 'song', 'neon-drift', 'qr')
    expect(other.token).not.toBe(link.token)
    expect(await wallet(server, sharer)).toEqual(before)
    expect(await sql(server, 'select 1 from public.shares where user_id = $1', [sharer.id])).toEqual([])
    // The old pay-on-click function is gone.
    expect(
      (await rpc(server, sharer.accessToken, 'share_credit', { p_item_type: 'song', p_item_id: 'neon-drift', p_platform: 'qr' })).status,
    ).toBe(404)
  })

  it('the sharer opening their own link pays nothing: signed in from elsewhere, or signed out from the same address', async () => {
    const link = await share(
      server,
      sharer,
      'user',
      (await sql<{ u: string }>(server, 'select username as u from public.profiles where user_id = $1', [friend.id]))[0]!.u,
      'copy_link',
    )
    const before = await wallet(server, sharer)
    expect(await open(server, link.token, '127.0.0.9', sharer)).toEqual({ credited: false, reason: 'own_link' })
    expect(await open(server, link.token, '127.0.0.1')).toEqual({ credited: false, reason: 'same_client' })
    // Another account on the sharer's own client is not a distinct client either.
    expect(await open(server, link.token, '127.0.0.1', friend)).toEqual({ credited: false, reason: 'same_client' })
    expect(await wallet(server, sharer)).toEqual(before)
    expect((await sql<{ status: string }>(server, 'select status from public.share_links where token = $1', [link.token]))[0]!.status).toBe(
      'pending',
    )
  })

  it('a distinct visitor from a distinct address pays the platform amount once; the next visitor that day pays nothing', async () => {
    for (const [i, platform] of ['twitter', 'facebook', 'copy_link', 'qr', 'share_now'].entries()) {
      const link = await share(server, sharer, 'track', `recipe-${platform}`, platform)
      const before = await wallet(server, sharer)
      // A visitor pays a sharer once a day (supabase/schemas/sharing.sql): one visitor per platform.
      const visitor = `127.0.3.${i + 1}`
      expect(await open(server, link.token, visitor), platform).toEqual({ credited: true, reason: 'credited' })
      expect((await wallet(server, sharer)).balance, platform).toBe(before.balance + AMOUNTS[platform]!)
      expect(await open(server, link.token, '127.0.0.3', friend), platform).toEqual({ credited: false, reason: 'already_credited_today' })
      expect(await open(server, link.token, visitor), platform).toEqual({ credited: false, reason: 'already_credited_today' })
      expect((await wallet(server, sharer)).balance, platform).toBe(before.balance + AMOUNTS[platform]!)
      const [row] = await sql<{ status: string; credited_at: Date | null }>(
        server,
        'select status, credited_at from public.share_links where token = $1',
        [link.token],
      )
      expect(row!.status).toBe('credited')
      expect(row!.credited_at).not.toBeNull()
      // Sharing it again the same day keeps it credited (it has earned today).
      expect((await share(server, sharer, 'track', `recipe-${platform}`, platform)).status).toBe('credited')
    }
    const ledger = await sql<{ reason: string; n: number }>(
      server,
      "select reason, count(*)::int as n from public.token_ledger where user_id = $1 and reason = 'share' group by reason",
      [sharer.id],
    )
    expect(ledger).toEqual([{ reason: 'share', n: 5 }])
    // The Analytics tab counts what was paid, and what still waits.
    const a = (await rpc(server, sharer.accessToken, 'share_analytics')).json
    expect(a).toMatchObject({ shares: 5, shares_today: 5, by_platform: { twitter: 1, facebook: 1, copy_link: 1, qr: 1, share_now: 1 } })
    expect(a.shares_pending).toBeGreaterThanOrEqual(2)
    await ledgerHolds(server)
  })

  it('one visitor pays a sharer once a day, whatever links they open: by address, and by account across addresses', async () => {
    const sharer = await newUser(server, 'one-visitor')
    const links = await Promise.all(
      ['twitter', 'facebook', 'copy_link', 'qr', 'share_now'].map((p) => share(server, sharer, 'song', 'neon-drift', p)),
    )
    const before = await wallet(server, sharer)
    // The sharer's own phone or VPN exit: an address the server never saw with the account. Raced.
    const byAddress = await Promise.all(links.map((l) => open(server, l.token, '127.0.4.1')))
    expect(byAddress.filter((a) => a.credited)).toHaveLength(1)
    expect(byAddress.filter((a) => a.reason === 'visitor_already_paid')).toHaveLength(4)
    const paid = links.find((_, i) => byAddress[i]!.credited)!
    expect((await wallet(server, sharer)).balance).toBe(before.balance + AMOUNTS[paid.platform]!)
    // A signed-in visitor is one visitor from every address.
    const rest = links.filter((l) => l !== paid)
    expect(await open(server, rest[0]!.token, '127.0.4.2', friend)).toEqual({ credited: true, reason: 'credited' })
    expect(await open(server, rest[1]!.token, '127.0.4.3', friend)).toEqual({ credited: false, reason: 'visitor_already_paid' })
    // Another visitor still pays.
    expect(await open(server, rest[1]!.token, '127.0.4.4')).toEqual({ credited: true, reason: 'credited' })
    // The server keeps who paid hashed: no address is stored.
    const keys = await sql<{ visitor_key: string }>(server, 'select visitor_key from public.share_open_payers where sharer_id = $1', [
      sharer.id,
    ])
    expect(keys).toHaveLength(4)
    expect(keys.some((k) => k.visitor_key.includes('127.0.'))).toBe(false)
    await ledgerHolds(server)
  })

  it('a link paid on an earlier day is pending again when shared again, and pays again once that day', async () => {
    const link = await share(server, friend, 'track', `yesterday-${unique()}`, 'qr')
    // As if it was paid yesterday (the ledger is append-only, so yesterday's payment is only the link's state).
    await sql(server, "update public.share_links set status = 'credited', credited_at = now() - interval '1 day' where id = $1", [link.id])
    expect((await share(server, friend, 'track', link.item_id, 'qr')).status).toBe('pending')
    const before = await wallet(server, friend)
    expect(await open(server, link.token, '127.0.0.5')).toEqual({ credited: true, reason: 'credited' })
    expect((await wallet(server, friend)).balance).toBe(before.balance + 15)
  })

  it('an invalid token gets a clear error and pays nothing', async () => {
    for (const token of ['', 'not-a-token', '0'.repeat(64), 'A'.repeat(64), 'x'.repeat(5000)]) {
      const r = await api(server, '/rest/v1/rpc/open_share', { body: { p_token: token }, from: '127.0.0.6' })
      expect(r.status, token.slice(0, 10)).toBe(400)
      expect(r.json).toMatchObject({ code: '22023', message: 'invalid_share_link' })
      expect(r.json.details).toMatch(/not valid/)
    }
    const missing = await api(server, '/rest/v1/rpc/open_share', { body: {}, from: '127.0.0.6' })
    expect(missing.status).toBeGreaterThanOrEqual(400)
  })

  it('tokens are unguessable and private: 50 links, 50 distinct 64-hex tokens; another user or a visitor lists none of them', async () => {
    const links = await Promise.all(Array.from({ length: 50 }, (_, i) => share(server, friend, 'track', `many-${i}`, 'copy_link')))
    const tokens = new Set(links.map((l) => l.token))
    expect(tokens.size).toBe(50)
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{64}$/)
    const mine = await api(server, `/rest/v1/share_links?select=token&user_id=eq.${friend.id}`, { token: friend.accessToken })
    expect(mine.status).toBe(200)
    expect((mine.json as unknown[]).length).toBeGreaterThanOrEqual(50)
    const theirs = await api(server, `/rest/v1/share_links?select=token`, { token: sharer.accessToken })
    expect((theirs.json as { token: string }[]).some((r) => tokens.has(r.token))).toBe(false)
    expect((await api(server, '/rest/v1/share_links?select=token')).status).toBe(401)
  })

  it('the sharer sees pending → credited live (Realtime on share_links, own rows only)', async () => {
    const link = await share(server, sharer, 'track', `live-${unique()}`, 'facebook')
    const mine = supabaseClient(server)
    mine.realtime.setAuth(sharer.accessToken)
    const theirs = supabaseClient(server)
    theirs.realtime.setAuth(friend.accessToken)
    const seen: { status: string; token: string }[] = []
    const leaked: unknown[] = []
    const join = (c: typeof mine, name: string, into: unknown[], filter?: string) =>
      new Promise<RealtimeChannel>((resolve, reject) => {
        const channel = c
          .channel(name)
          .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'share_links', filter }, (p) => into.push(p.new))
        channel.subscribe((status, error) => {
          if (status === 'SUBSCRIBED') resolve(channel)
          else if (status !== 'CLOSED') reject(error ?? new Error(status))
        })
      })
    try {
      await join(mine, 'my-shares', seen, `user_id=eq.${sharer.id}`)
      await join(theirs, 'spy', leaked)
      expect(await open(server, link.token, '127.0.0.7', friend)).toMatchObject({ credited: true })
      const end = Date.now() + 5000
      while (!seen.some((s) => s.token === link.token && s.status === 'credited') && Date.now() < end)
        await new Promise((r) => setTimeout(r, 20))
      expect(seen.find((s) => s.token === link.token)).toMatchObject({ status: 'credited', amount: 10 })
      await new Promise((r) => setTimeout(r, 300))
      expect(leaked).toEqual([])
    } finally {
      await mine.removeAllChannels()
      await theirs.removeAllChannels()
    }
  })
})

// An outsider's ways to open a link for others: an <img> (a GET, no headers), another site's
// fetch() (its own Origin), a visit that was never shown, a nonce used twice, late, or elsewhere.
describe.each(DATABASES)("a share pays only for a visit the app's own page proves, on %s", (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  let addresses = 0
  /** A client address no visitor used before. */
  const fresh = () => `127.0.7.${++addresses}`
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 120_000)
  afterAll(() => stop?.())
  const balanceOf = async (user: TestUser) => (await wallet(server, user)).balance
  const nonceOf = (r: { status: number; text: string; json: { nonce?: string } }) => {
    expect(r.status, r.text).toBe(200)
    return r.json.nonce!
  }

  it("another site's <img src=…/rpc/open_share?p_token=…> pays nothing: no key is 401, with the key it is read-only (405)", async () => {
    const sharer = await newUser(server, 'img')
    const link = await share(server, sharer, 'song', 'neon-drift', 'twitter')
    const before = await balanceOf(sharer)
    const from = fresh()
    // What the browser sends for an <img>: a plain GET, no apikey header, no Origin.
    const get = (query: string) =>
      fetchFrom(from)(`${server.url}/rest/v1/rpc/${query}`, {
        headers: { Accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8' },
      })
    const bare = await get(`open_share?p_token=${link.token}`)
    expect([bare.status, await bare.json()]).toEqual([
      401,
      { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' },
    ])
    const keyed = await get(`open_share?p_token=${link.token}&apikey=${server.keys.anonKey}`)
    expect(keyed.status).toBe(405)
    expect(await keyed.json()).toMatchObject({ code: '25006' })
    const begun = await get(`share_visit_begin?p_token=${link.token}&apikey=${server.keys.anonKey}`)
    // An <img> has no Origin: not the app's page, before anything is written.
    expect([begun.status, (await begun.json()).message]).toEqual([401, 'share_visit_not_from_app'])
    expect(await balanceOf(sharer)).toBe(before)
    expect(
      (
        await sql(server, 'select 1 from public.share_visits v join public.share_links l on l.id = v.link_id where l.token = $1', [
          link.token,
        ])
      ).length,
    ).toBe(0)
  })

  it("another site's fetch() (its Origin, cross-site) gets no visit and pays nothing, even with a nonce the app's page got", async () => {
    const sharer = await newUser(server, 'foreign')
    const link = await share(server, sharer, 'song', 'neon-drift', 'facebook')
    const before = await balanceOf(sharer)
    const from = fresh()
    const foreign = { Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' }
    const refused = await beginShareVisit(server, link.token, from, { headers: foreign })
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ code: '42501', message: 'share_visit_not_from_app' })
    expect(refused.json.details).toMatch(/app's own page/)
    // No Origin at all (a script outside a browser that does not claim one) is not the app's page either.
    expect((await beginShareVisit(server, link.token, from, { headers: {} })).status).toBe(401)
    // A same-origin claim that the browser's Sec-Fetch-Site contradicts.
    expect(
      (await beginShareVisit(server, link.token, from, { headers: { Origin: server.url, 'Sec-Fetch-Site': 'cross-site' } })).status,
    ).toBe(401)
    const nonce = nonceOf(await beginShareVisit(server, link.token, from))
    await pageShown(server, nonce)
    for (const headers of [foreign, {}]) {
      const r = await redeemShareVisit(server, link.token, nonce, from, { headers })
      expect([r.status, r.json]).toEqual([200, { credited: false, reason: 'not_from_app' }])
    }
    expect(await balanceOf(sharer)).toBe(before)
    // The nonce was not spent by the refusals: the app's page itself still counts.
    expect((await redeemShareVisit(server, link.token, nonce, from)).json).toEqual({ credited: true, reason: 'credited' })
  })

  it('a missing, unknown, foreign-address, other-link, early, reused or expired nonce pays nothing', async () => {
    const sharer = await newUser(server, 'nonce')
    const link = await share(server, sharer, 'song', 'neon-drift', 'copy_link')
    const other = await share(server, sharer, 'song', 'neon-drift', 'qr')
    const before = await balanceOf(sharer)
    const from = fresh()
    const unproven = { credited: false, reason: 'unproven_visit' }
    expect((await redeemShareVisit(server, link.token, undefined, from)).json).toEqual(unproven)
    expect((await redeemShareVisit(server, link.token, 'f'.repeat(64), from)).json).toEqual(unproven)
    expect((await redeemShareVisit(server, link.token, 'not-a-nonce', from)).json).toEqual(unproven)
    const nonce = nonceOf(await beginShareVisit(server, link.token, from))
    // Straight away: no page was shown yet. The nonce stays good for the page's own call.
    expect((await redeemShareVisit(server, link.token, nonce, from)).json).toEqual({ credited: false, reason: 'visit_too_short' })
    await pageShown(server, nonce)
    expect((await redeemShareVisit(server, link.token, nonce, fresh())).json).toEqual(unproven)
    expect((await redeemShareVisit(server, other.token, nonce, from)).json).toEqual(unproven)
    expect(await balanceOf(sharer)).toBe(before)
    expect((await redeemShareVisit(server, link.token, nonce, from)).json).toEqual({ credited: true, reason: 'credited' })
    expect((await redeemShareVisit(server, link.token, nonce, from)).json).toEqual({ credited: false, reason: 'visit_already_counted' })
    const late = nonceOf(await beginShareVisit(server, other.token, fresh()))
    await sql(server, "update public.share_visits set issued_at = now() - interval '16 minutes' where nonce = $1", [late])
    const lateFrom = `127.0.7.${addresses}`
    expect((await redeemShareVisit(server, other.token, late, lateFrom)).json).toEqual({ credited: false, reason: 'visit_expired' })
    expect(await balanceOf(sharer)).toBe(before + AMOUNTS.copy_link!)
    await ledgerHolds(server)
  })

  it('one proven visit redeemed 12 times at once pays exactly once', async () => {
    const sharer = await newUser(server, 'nonce-race')
    const link = await share(server, sharer, 'song', 'neon-drift', 'share_now')
    const before = await balanceOf(sharer)
    const from = fresh()
    const nonce = nonceOf(await beginShareVisit(server, link.token, from))
    await pageShown(server, nonce)
    const answers = await Promise.all(Array.from({ length: 12 }, () => redeemShareVisit(server, link.token, nonce, from)))
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200))
    expect(answers.filter((a) => a.json.credited)).toHaveLength(1)
    expect(answers.filter((a) => a.json.reason === 'visit_already_counted')).toHaveLength(11)
    expect(await balanceOf(sharer)).toBe(before + AMOUNTS.share_now!)
    await ledgerHolds(server)
  })

  it("one address begins at most the rules' visits per 10 minutes, with a message in words", async () => {
    const sharer = await newUser(server, 'visit-flood')
    const link = await share(server, sharer, 'song', 'neon-drift', 'twitter')
    const from = fresh()
    const answers = await Promise.all(Array.from({ length: 31 }, () => beginShareVisit(server, link.token, from)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30)
    const refused = answers.find((a) => a.status !== 200)!
    expect(refused.json).toMatchObject({ code: '54000', message: 'too_many_share_visits' })
    expect(refused.json.details).toMatch(/Too many shared links opened from here/)
  })
})

describe.each(DATABASES)('shares under concurrency on %s', (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 120_000)
  afterAll(() => stop?.())

  it('20 concurrent opens from 20 addresses pay exactly once', async () => {
    const sharer = await newUser(server, 'race')
    const link = await share(server, sharer, 'song', 'neon-drift', 'qr')
    const before = await wallet(server, sharer)
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => open(server, link.token, `127.0.1.${i + 1}`)))
    expect(answers.filter((a) => a.credited)).toHaveLength(1)
    expect(answers.filter((a) => a.reason === 'already_credited_today')).toHaveLength(19)
    expect((await wallet(server, sharer)).balance).toBe(before.balance + 15)
    await ledgerHolds(server)
  })

  it('the daily share cap holds when visitors open 14 different links at once', async () => {
    const sharer = await newUser(server, 'capped')
    const links = await Promise.all(Array.from({ length: 14 }, (_, i) => share(server, sharer, 'track', `capped-${i}`, 'copy_link')))
    const before = await wallet(server, sharer)
    const answers = await Promise.all(links.map((l, i) => open(server, l.token, `127.0.2.${i + 1}`)))
    expect(answers.filter((a) => a.credited)).toHaveLength(10)
    expect(answers.filter((a) => a.reason === 'daily_cap')).toHaveLength(4)
    expect((await wallet(server, sharer)).balance).toBe(before.balance + 50)
    const rows = await sql<{ n: number }>(server, 'select count(*)::int as n from public.shares where user_id = $1', [sharer.id])
    expect(rows[0]!.n).toBe(10)
    await ledgerHolds(server)
  })

  it('an opener whose address has spent its daily bound pays the sharer only what is left of it, then nothing', async () => {
    const sharer = await newUser(server, 'bound')
    const from = '127.0.4.77'
    const [first, second] = [await share(server, sharer, 'track', 'bound-a', 'qr'), await share(server, sharer, 'track', 'bound-b', 'qr')]
    // The address's accounts already made the server pay all but 4 CUBE of today's bound.
    await sql(
      server,
      `insert into public.address_earnings (address_key, day, earned)
       values (encode(sha256(convert_to($1, 'UTF8')), 'hex'), (clock_timestamp() at time zone 'utc')::date,
               (public.link_rules() ->> 'address_daily_cap')::int - 4)`,
      [from],
    )
    const before = await wallet(server, sharer)
    expect(await open(server, first.token, from)).toEqual({ credited: true, reason: 'credited' })
    expect((await wallet(server, sharer)).balance).toBe(before.balance + 4)
    const other = '127.0.4.78'
    await sql(
      server,
      `insert into public.address_earnings (address_key, day, earned)
       values (encode(sha256(convert_to($1, 'UTF8')), 'hex'), (clock_timestamp() at time zone 'utc')::date,
               (public.link_rules() ->> 'address_daily_cap')::int)`,
      [other],
    )
    expect(await open(server, second.token, other)).toEqual({ credited: false, reason: 'address_cap' })
    expect((await wallet(server, sharer)).balance).toBe(before.balance + 4)
    await ledgerHolds(server)
    // The sharer reads what each proven open did on their own links; nobody else reads them.
    const mine = await api(server, '/rest/v1/share_links?select=token,status,amount,last_open_reason,last_open_at', {
      token: sharer.accessToken,
    })
    const byToken = new Map((mine.json as (Link & { last_open_reason: string; last_open_at: string })[]).map((l) => [l.token, l]))
    expect(byToken.get(first.token)).toMatchObject({ status: 'credited', amount: 4, last_open_reason: 'credited' })
    expect(byToken.get(second.token)).toMatchObject({ status: 'pending', last_open_reason: 'address_cap' })
    expect(byToken.get(second.token)!.last_open_at).not.toBeNull()
  })
})

describe('RLS of share_links, client_rate_limits and share_open_payers', () => {
  let server: TestServer
  let owner: TestUser
  let other: TestUser
  const ctx = () => rlsContext(server, owner, other)
  const CASES: Record<string, RlsCase> = {
    share_links: {
      target: ({ owner: { id: o } }) => `user_id=eq.${o}&item_id=eq.rls-fixture`,
      insert: ({ owner: { id: o } }) => ({
        token: 'f'.repeat(64),
        user_id: o,
        item_type: 'track',
        item_id: 'forged',
        platform: 'qr',
        amount: 1000,
        status: 'credited',
      }),
      update: { status: 'credited', amount: 1000 },
      inserted: () => ctx().exists("select 1 from public.share_links where item_id = 'forged'"),
      untouched: () => ctx().exists("select 1 from public.share_links where item_id = 'rls-fixture' and amount = 5 and status = 'pending'"),
      reset: () =>
        ctx().q(
          "insert into public.share_links (token, user_id, item_type, item_id, platform, amount) values ($2, $1, 'track', " +
            "'rls-fixture', 'copy_link', 5) on conflict do nothing",
          [owner.id, 'e'.repeat(64)],
        ),
      expect: readOnlyOwn,
    },
    share_open_payers: {
      target: () => 'visitor_key=eq.u:rls-fixture',
      insert: ({ owner: { id: o } }) => ({ sharer_id: o, day: '2030-01-01', visitor_key: 'u:forged' }),
      update: { visitor_key: 'u:moved' },
      inserted: () => ctx().exists("select 1 from public.share_open_payers where visitor_key = 'u:forged'"),
      untouched: () => ctx().exists("select 1 from public.share_open_payers where visitor_key = 'u:rls-fixture'"),
      reset: () =>
        ctx().q(
          "insert into public.share_open_payers (sharer_id, day, visitor_key) values ($1, '2001-01-01', 'u:rls-fixture') " +
            'on conflict do nothing',
          [owner.id],
        ),
      expect: {
        anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      },
    },
    share_visits: {
      target: () => 'visitor_key=eq.a:rls-fixture',
      insert: () => ({ nonce: 'd'.repeat(64), link_id: '00000000-0000-4000-8000-000000000000', visitor_key: 'a:forged' }),
      update: { redeemed_at: null, issued_at: '2030-01-01T00:00:00Z' },
      inserted: () => ctx().exists("select 1 from public.share_visits where visitor_key = 'a:forged'"),
      untouched: () => ctx().exists("select 1 from public.share_visits where visitor_key = 'a:rls-fixture' and redeemed_at is not null"),
      reset: async () => {
        await ctx().q(
          "insert into public.share_links (token, user_id, item_type, item_id, platform, amount) values (repeat('e', 64), $1, 'track', " +
            "'rls-visit', 'qr', 15) on conflict do nothing",
          [owner.id],
        )
        await ctx().q(
          "insert into public.share_visits (nonce, link_id, visitor_key, redeemed_at) select repeat('e', 64), id, 'a:rls-fixture', now() " +
            "from public.share_links where token = repeat('e', 64) " +
            'on conflict (nonce) do update set redeemed_at = now(), issued_at = now()',
        )
      },
      expect: {
        anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      },
    },
    app_origins: {
      target: () => 'origin=eq.https://rls-fixture.example',
      insert: () => ({ origin: 'https://forged.example' }),
      update: { origin: 'https://moved.example' },
      inserted: () => ctx().exists("select 1 from public.app_origins where origin = 'https://forged.example'"),
      untouched: () => ctx().exists("select 1 from public.app_origins where origin = 'https://rls-fixture.example'"),
      reset: () => ctx().q("insert into public.app_origins values ('https://rls-fixture.example') on conflict do nothing"),
      expect: {
        anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      },
    },
    client_rate_limits: {
      target: () => 'bucket=eq.wallet_link&client=eq.rls-fixture',
      insert: () => ({ bucket: 'wallet_link', client: 'forged', window_start: '2030-01-01T00:00:00Z', hits: 1 }),
      update: { hits: 1000 },
      inserted: () => ctx().exists("select 1 from public.client_rate_limits where client = 'forged'"),
      untouched: () => ctx().exists("select 1 from public.client_rate_limits where client = 'rls-fixture' and hits = 1"),
      reset: () =>
        ctx().q(
          "insert into public.client_rate_limits (bucket, client, window_start, hits) values ('wallet_link', 'rls-fixture', " +
            "'2001-01-01T00:00:00Z', 1) on conflict (bucket, client, window_start) do update set hits = 1",
        ),
      expect: {
        anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      },
    },
  }
  beforeAll(async () => {
    server = await startTestServer()
    owner = await newUser(server, 'rls-owner')
    other = await newUser(server, 'rls-other')
  }, 60_000)
  afterAll(() => server?.close())
  rlsMatrixTests(CASES, ctx)
})
