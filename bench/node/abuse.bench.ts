/**
 * Abuse: scripted attackers against the real local backend (HTTP server, embedded PGlite, every rule
 * in the migrations), each for one simulated day, and an honest listener to compare them with
 * ("Visibility and proof"). Reports CUBE gained per account per strategy and whether any
 * strategy beats the honest listener per account, or any account created after a proposal changes
 * its result.
 *
 * The clock. The server measures listening with its own clock (clock_timestamp()) and has no switch
 * to run it faster, so the bench simulates time the only way it can: between two reports of a
 * session it moves that account's clock-relative timestamps (the active session's started_at and
 * last_report_at, the wallet's last_interaction_at) back by the simulated step with superuser SQL,
 * exactly as tests/backend/support/listening.ts passTime does. An attacker cannot do that: the
 * attacker is the client side of the bench, which only calls the public API the app calls
 * (listen_start, listen_report, share_create, open_share, cast_vote, …) as the app would. A step
 * is 60 simulated seconds with one report (the app reports every 15 s; a gap of up to 90 s counts
 * in full, so the server credits the same). Everything happens on the server's real UTC date, so
 * the per-day caps apply to the simulated day as a whole. Account ages are set with SQL too
 * ("established" accounts: a week old, with listening on 3 earlier days, i.e. trusted, their CUBE
 * voting at 3/30 weight; the honest listener and the honest family have been around for 60 days
 * with listening on 30 of them, so their CUBE vote at full weight).
 *
 * Run: npm run bench -- abuse    (or standalone: npx tsx bench/node/abuse.bench.ts)
 * Env: ABUSE_HOURS (default 24) shortens the simulated day while developing; ABUSE_SYBILS (100);
 * ABUSE_ADDRESSES (5) and ABUSE_PER_ADDRESS (30) size the per-address rows. Per address it also
 * attacks a proposal honest trusted voters decide, the chart (offline-play floods), the radio's
 * listener count (presence), tracks declared short and shares opened by another site.
 */
import { Agent, request } from 'node:http'
import { pathToFileURL } from 'node:url'
import { createClient, type RealtimeChannel } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { startLocalServer, type LocalServer } from '../../supabase/local/core/server.ts'
import { SCRIPTED_SERVER_OPTIONS } from '../../tests/backend/support/local-backend.ts'
import type { BenchResult } from '../types.ts'

const HOURS = Number(process.env.ABUSE_HOURS ?? 24)
const SYBILS = Number(process.env.ABUSE_SYBILS ?? 100)
const DAY = HOURS * 3600
const STEP = 60
const HOME = '127.0.0.1'
/** Every listener plays the catalogue in this one shuffled order: songs pay 1 to 5 CUBE, so the order is not a strategy. */
const QUEUE_SEED = 1

interface Song {
  id: string
  duration: number
  reward: number
}
interface Account {
  id: string
  token: string
  username: string
  from: string
}
interface Figures {
  balance: number
  locked: number
  trusted: boolean
  pot: number
  power: number
}
/** What one strategy's accounts gained in the simulated day, summed; `accounts` divides it. */
interface Gain {
  spendable: number
  unlocked: number
  pot: number
  power: number
}
interface Row {
  strategy: string
  accounts: number
  gain: Gain
  /** Governance rows: a pass/fail of their own instead of CUBE per account. */
  verdict?: { pass: boolean; note: string }
  /** The honest behaviour this row is measured against, when it is not the honest listener. */
  baseline?: number
  note: string
}

// --- the attacker's client: plain HTTP from a chosen loopback address ----------------------------

const agents = new Map<string, Agent>()
const agentFor = (from: string) => agents.get(from) ?? agents.set(from, new Agent({ keepAlive: true, maxSockets: 16 })).get(from)!

interface Answer {
  status: number
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever JSON the server answers
  json: any
}

function call(
  server: LocalServer,
  path: string,
  body: unknown,
  token: string | undefined,
  from: string,
  page: Record<string, string> = { Origin: server.url, 'Sec-Fetch-Site': 'same-origin' },
): Promise<Answer> {
  const payload = Buffer.from(JSON.stringify(body ?? {}))
  const url = new URL(path, server.url)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: agentFor(from),
        headers: {
          apikey: server.keys.anonKey,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          // What the app's own page sends (a script outside a browser can say the same), unless
          // the strategy is another site's page.
          ...page,
          'Content-Type': 'application/json',
          'Content-Length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          let json: unknown
          try {
            json = text ? JSON.parse(text) : undefined
          } catch {
            json = text
          }
          resolve({ status: res.statusCode ?? 0, json })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const rpc = (server: LocalServer, a: Account | null, name: string, args: Record<string, unknown> = {}, from = a?.from ?? HOME) =>
  call(server, `/rest/v1/rpc/${name}`, args, a?.token, from)

async function mustRpc(server: LocalServer, a: Account, name: string, args: Record<string, unknown> = {}, from?: string) {
  const r = await rpc(server, a, name, args, from)
  if (r.status !== 200) throw new Error(`${name}: ${r.status} ${JSON.stringify(r.json)}`)
  return r.json
}

/**
 * Opening a shared link as its page does: a visit begun, the page shown for the rules' minimum (the
 * nonce dated back, as the simulated clock does), then redeemed. The answer of open_share.
 */
async function openShared(server: LocalServer, a: Account | null, token: string, from: string) {
  const begun = await rpc(server, a, 'share_visit_begin', { p_token: token }, from)
  if (begun.status !== 200) return { credited: false, reason: `visit refused (${begun.status})` }
  const nonce = (begun.json as { nonce: string }).nonce
  await sql(
    server,
    'update public.share_visits set issued_at = issued_at - ' +
      "make_interval(secs => (public.share_visit_rules() ->> 'min_seconds')::int) where nonce = $1",
    [nonce],
  )
  return (await rpc(server, a, 'open_share', { p_token: token, p_nonce: nonce }, from)).json as { credited: boolean; reason: string }
}

let serial = 0
/** A sign-up as the app makes it, then the wallet (init-user-tokens); null when the server refused it (429). */
async function signUp(server: LocalServer, from: string, label: string): Promise<Account | null> {
  const n = ++serial
  const r = await call(
    server,
    '/auth/v1/signup',
    { email: `${label}${n}-${Date.now()}@example.com`, password: 'bench-password' },
    undefined,
    from,
  )
  if (r.status !== 200) {
    if (r.status === 429) return null
    throw new Error(`sign-up: ${r.status} ${JSON.stringify(r.json)}`)
  }
  const token = r.json.access_token as string
  const init = await call(server, '/functions/v1/init-user-tokens', {}, token, from)
  if (init.status !== 200) throw new Error(`init-user-tokens: ${init.status} ${JSON.stringify(init.json)}`)
  const [profile] = (
    await server.db.query<{ username: string }>('select username from public.profiles where user_id = $1', [r.json.user.id])
  ).rows
  return { id: r.json.user.id as string, token, username: profile?.username ?? '', from }
}

/** The custodial wallet the app offers (wallet-verify { custodial: true }): the 50 CUBE wallet welcome. */
const linkWallet = async (server: LocalServer, a: Account) =>
  (await call(server, '/functions/v1/wallet-verify', { custodial: true }, a.token, a.from)).status === 200

// --- test setup the server cannot be asked for: age, history, the simulated clock ---------------

const sql = async <T = Record<string, unknown>>(server: LocalServer, text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows

/** How long an account has been around: its age and the earlier days it had credited listens on (10 songs). */
interface History {
  ageDays: number
  listeningDays: number
}
/** What waiting out the trust rule takes: a week old, listening on 3 days (trusted; its CUBE vote at 3/30 weight). */
const WAITED: History = { ageDays: 7, listeningDays: 3 }
/** A listener of two months who listened on 30 of its days: its CUBE vote at full weight (governance_power). */
const ESTABLISHED: History = { ageDays: 60, listeningDays: 30 }

/** An account `history.ageDays` old with qualifying listens on `history.listeningDays` earlier days, as trust.ts listenHistory. */
async function establish(server: LocalServer, a: Account, history: History = WAITED): Promise<void> {
  await sql(server, 'update auth.users set created_at = created_at - make_interval(days => $2::int) where id = $1', [a.id, history.ageDays])
  const rows = Math.max(10, history.listeningDays)
  for (let i = 0; i < rows; i++) {
    await sql(
      server,
      'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key, created_at) ' +
        "values ($1::uuid, 1, 'listen', $2, 'bench-history:' || $1::text || ':' || $3, now() - make_interval(days => $4::int))",
      [a.id, `history-song-${i % 10}`, String(i), (i % history.listeningDays) + 1],
    )
  }
  await sql(server, 'update public.user_tokens set balance = balance + $2 where user_id = $1', [a.id, rows])
}

/** As if `seconds` more had passed on the server's clock for these accounts (their active session and last interaction). */
async function advance(server: LocalServer, ids: string[], seconds: number): Promise<void> {
  await sql(
    server,
    `update public.listening_sessions
        set started_at = started_at - make_interval(secs => $2), last_report_at = last_report_at - make_interval(secs => $2)
      where user_id = any ($1::uuid[]) and ended_at is null`,
    [ids, seconds],
  )
  await sql(
    server,
    'update public.user_tokens set last_interaction_at = last_interaction_at - make_interval(secs => $2) where user_id = any ($1::uuid[])',
    [ids, seconds],
  )
}

/** "20 credited, 2 song_limit, …": how the server decided this account's sessions. */
async function outcomes(server: LocalServer, a: Account): Promise<string> {
  const rows = await sql<{ outcome: string; n: number }>(
    server,
    "select coalesce(outcome, 'nothing') as outcome, count(*)::int as n from public.listening_sessions where user_id = $1 " +
      'group by 1 order by 2 desc',
    [a.id],
  )
  return rows.map((r) => `${r.n} ${r.outcome}`).join(', ')
}

async function figures(server: LocalServer, a: Account): Promise<Figures> {
  const [t] = await sql<{ balance: number; locked: number; trusted: boolean; power: string }>(
    server,
    'select balance, locked, trusted, public.governance_own_power($1)::text as power from public.account_trust($1)',
    [a.id],
  )
  const status = await mustRpc(server, a, 'wallet_claim_status')
  return { balance: t!.balance, locked: t!.locked, trusted: t!.trusted, pot: Number(status.claimable), power: Number(t!.power) }
}

/** Gains since `before`; the pot counts only where the account may claim it (trusted). */
async function gained(server: LocalServer, accounts: Account[], before: Map<string, Figures>): Promise<Gain> {
  const g: Gain = { spendable: 0, unlocked: 0, pot: 0, power: 0 }
  for (const a of accounts) {
    const b = before.get(a.id) ?? { balance: 0, locked: 0, trusted: false, pot: 0, power: 0 }
    const f = await figures(server, a)
    g.spendable += f.balance - b.balance
    g.unlocked += f.balance - f.locked - (b.balance - b.locked)
    g.pot += f.trusted ? f.pot - (b.trusted ? b.pot : 0) : 0
    g.power += f.power - b.power
  }
  return g
}

// --- listening as the app does it ------------------------------------------------------------------

let plays = 0
const playKey = () => `abuse-${++plays}-${Math.random().toString(36).slice(2)}`

interface Listening {
  /** The next song to play (the queue). */
  next: () => Song
  /** Simulated seconds of playback. */
  seconds: number
  /** The listener touches the app this often (null: never after pressing play). */
  interactEvery: number | null
  /** Skip to the next song once this much of a song has played (null: play it to the end). */
  skipAfter?: number
}

/** One account playing a queue for `seconds` of simulated time: start, a report per 60-s step, the next song. */
async function listen(server: LocalServer, a: Account, plan: Listening): Promise<void> {
  let t = 0
  let lastInteraction = 0
  let first = true
  while (t < plan.seconds) {
    const song = plan.next()
    const length = Math.min(song.duration, plan.skipAfter ?? Infinity, plan.seconds - t)
    const s = await mustRpc(server, a, 'listen_start', { p_song_id: song.id, p_play_id: playKey(), p_interacted: first })
    first = false
    for (let played = 0; played < length; ) {
      const step = Math.min(STEP, length - played)
      await advance(server, [a.id], step)
      played += step
      t += step
      const interacted = plan.interactEvery !== null && t - lastInteraction >= plan.interactEvery
      if (interacted) lastInteraction = t
      await mustRpc(server, a, 'listen_report', {
        p_session_id: s.session_id,
        p_playing: true,
        p_interacted: interacted,
        p_ended: played >= length,
      })
    }
  }
}

const shuffled = <T>(items: T[], seed: number): T[] => {
  const out = [...items]
  let x = seed
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) >>> 0
    const j = x % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
const queue = (songs: Song[], seed: number) => {
  const order = shuffled(songs, seed)
  let i = 0
  return () => order[i++ % order.length]!
}

// --- the strategies ---------------------------------------------------------------------------------

async function inBatches<T>(items: T[], size: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map((item, k) => work(item, i + k)))
}

/** Fresh accounts signed up from one address, each linking the custodial wallet and listening its fill. */
async function sybils(server: LocalServer, count: number, from: string, label: string) {
  const accounts: Account[] = []
  for (let i = 0; i < count; i++) {
    const a = await signUp(server, from, label)
    if (a) accounts.push(a)
  }
  let linked = 0
  for (const a of accounts) if (await linkWallet(server, a)) linked++
  return { accounts, linked }
}

/** Skip after 35 s (past the 30-s mark that credits a listen): the fastest way to the daily cap of 20. */
const skipper = (songs: Song[]): Listening => ({ next: queue(songs, QUEUE_SEED), seconds: 21 * 35, interactEvery: 60, skipAfter: 35 })

async function governanceClose(server: LocalServer, by: Account, ids: string[]) {
  await sql(
    server,
    "update public.proposals set created_at = now() - interval '3 days', ends_at = now() - interval '1 minute' where id = any ($1::uuid[])",
    [ids],
  )
  await mustRpc(server, by, 'governance_overview')
  return sql<{ id: string; status: string; votes_for: string; votes_against: string }>(
    server,
    'select id, status, votes_for::text, votes_against::text from public.proposals where id = any ($1::uuid[])',
    [ids],
  )
}

const propose = (server: LocalServer, a: Account, title: string) =>
  rpc(server, a, 'create_proposal', {
    p_title: title,
    p_description: 'Scripted by the abuse bench.',
    p_category: 'platform',
    p_ends_at: new Date(Date.now() + 2 * 86400_000).toISOString(),
    p_attempt_key: `abuse-${Math.random().toString(36).slice(2)}`,
  })

/** How many of 100 sign-ups from one address, and of their wallet links, a server with the default limits accepts. */
async function defaultLimits(): Promise<{ signups: number; links: number; tried: number }> {
  const server = await startLocalServer({ port: 0, bcryptRounds: 4, embeddedChain: false, emailConfirm: false })
  try {
    const from = '127.0.0.99'
    const { accounts, linked } = await sybils(server, 100, from, 'limited')
    return { signups: accounts.length, links: linked, tried: 100 }
  } finally {
    await server.close()
  }
}

async function simulate(server: LocalServer): Promise<{ rows: Row[]; honest: Gain; notes: string[]; addressRows: AddressRow[] }> {
  const songs = (
    await sql<{ id: string; duration_seconds: string; reward: number }>(
      server,
      'select id, duration_seconds, reward from public.songs where owner_id is null order by id',
    )
  ).map((s) => ({ id: s.id, duration: Number(s.duration_seconds), reward: s.reward }))
  const notes: string[] = []
  const rows: Row[] = []
  const before = new Map<string, Figures>()
  // Each established account is its own person at its own address (127.1.x.1), unless told: the
  // ring rule of the trust rule counts accounts of one generation per address.
  let homes = 0
  const established = async (label: string, from = `127.1.${++homes}.1`, history: History = WAITED) => {
    const a = (await signUp(server, from, label))!
    await establish(server, a, history)
    before.set(a.id, await figures(server, a))
    return a
  }
  const track = async (accounts: Account[]) => {
    for (const a of accounts) if (!before.has(a.id)) before.set(a.id, { balance: 0, locked: 0, trusted: false, pot: 0, power: 0 })
  }

  // Governance first: the proposal the accounts made afterwards will try to capture.
  const author = await established('author')
  const voter = await established('voter')
  await sql(server, 'update public.user_tokens set balance = balance + 200 where user_id = $1', [author.id]) // enough to propose
  await sql(
    server,
    'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key) ' +
      "values ($1::uuid, 200, 'listen', 'history-song-0', 'bench-top-up:' || $1::text)",
    [author.id],
  )
  const ring = [await established('ring'), await established('ring'), await established('ring'), await established('ring')]
  // Re-delegation before the proposal: A -> B -> C (a chain), D alone.
  await mustRpc(server, ring[0]!, 'delegate_voting_power', { p_username: ring[1]!.username })
  await mustRpc(server, ring[1]!, 'delegate_voting_power', { p_username: ring[2]!.username })
  const p1 = await propose(server, author, 'Abuse bench: the proposal to capture')
  if (p1.status !== 200) throw new Error(`create_proposal: ${p1.status} ${JSON.stringify(p1.json)}`)
  const p1Id = p1.json.proposal.id as string
  const ringOwn = await sql<{ own: string }>(
    server,
    'select coalesce(sum(own_power), 0)::text as own from public.proposal_power where proposal_id = $1 and user_id = any ($2::uuid[])',
    [p1Id, ring.map((r) => r.id)],
  )
  await mustRpc(server, author, 'cast_vote', { p_proposal_id: p1Id, p_choice: 'for' })
  await mustRpc(server, voter, 'cast_vote', { p_proposal_id: p1Id, p_choice: 'against' })
  // After the snapshot: undelegate, re-delegate, everyone tries to vote for.
  await mustRpc(server, ring[0]!, 'undelegate_voting_power')
  await mustRpc(server, ring[1]!, 'undelegate_voting_power')
  const ringVotes: string[] = []
  for (const [i, a] of [ring[2]!, ring[3]!, ring[0]!, ring[1]!].entries()) {
    if (i === 1) await mustRpc(server, ring[3]!, 'delegate_voting_power', { p_username: ring[2]!.username })
    const r = await rpc(server, a, 'cast_vote', { p_proposal_id: p1Id, p_choice: 'for' })
    ringVotes.push(r.status === 200 ? `voted ${r.json.vote.power}` : String(r.json?.message ?? r.status))
  }
  const [castByRing] = await sql<{ power: string }>(
    server,
    'select coalesce(sum(power), 0)::text as power from public.votes where proposal_id = $1 and user_id = any ($2::uuid[])',
    [p1Id, ring.map((r) => r.id)],
  )
  const p1Before = (
    await sql<{ votes_for: string; votes_against: string; quorum_power: string }>(
      server,
      'select votes_for::text, votes_against::text, quorum_power::text from public.proposals where id = $1',
      [p1Id],
    )
  )[0]!
  const [yes, no] = [Number(p1Before.votes_for), Number(p1Before.votes_against)]
  const p1Expected = yes > no && yes + no >= Number(p1Before.quorum_power) ? 'passed' : 'rejected'

  // 1. The honest listener: the catalogue shuffled, full songs, a touch every 20 min, 8 hours.
  const honestAccount = await established('honest', undefined, ESTABLISHED)
  await listen(server, honestAccount, { next: queue(songs, QUEUE_SEED), seconds: Math.min(8 * 3600, DAY), interactEvery: 20 * 60 })
  const honest = await gained(server, [honestAccount], before)

  // 2. One account looping one song all day, touching the app every 20 min.
  const looper = await established('loop')
  await listen(server, looper, { next: () => songs[0]!, seconds: DAY, interactEvery: 20 * 60 })
  rows.push({
    strategy: 'One account looping one song',
    accounts: 1,
    gain: await gained(server, [looper], before),
    note: `sessions: ${await outcomes(server, looper)}`,
  })

  // 3. Parallel sessions: 4 devices of one account play each song of the queue at once (started and
  //    reported concurrently, hoping for 4 credits a song), a touch every 20 min, 8 hours.
  const parallel = await established('parallel')
  const next = queue(songs, QUEUE_SEED)
  const deviceAnswers = { ended: 0, live: 0 }
  for (let t = 0, lastTouch = 0; t < Math.min(8 * 3600, DAY); ) {
    const song = next()
    const started = await Promise.all(
      [0, 1, 2, 3].map(() => mustRpc(server, parallel, 'listen_start', { p_song_id: song.id, p_play_id: playKey(), p_interacted: true })),
    )
    for (let played = 0; played < song.duration && t < Math.min(8 * 3600, DAY); ) {
      const step = Math.min(STEP, song.duration - played)
      await advance(server, [parallel.id], step)
      played += step
      t += step
      const touch = t - lastTouch >= 20 * 60
      if (touch) lastTouch = t
      const answers = await Promise.all(
        started.map((s) =>
          mustRpc(server, parallel, 'listen_report', {
            p_session_id: s.session_id,
            p_playing: true,
            p_interacted: touch,
            p_ended: played >= song.duration,
          }),
        ),
      )
      for (const r of answers) deviceAnswers[r.ended && played < song.duration ? 'ended' : 'live']++
    }
  }
  rows.push({
    strategy: 'Parallel sessions (4 devices, 1 account)',
    accounts: 1,
    gain: await gained(server, [parallel], before),
    note:
      `${deviceAnswers.ended} of ${deviceAnswers.ended + deviceAnswers.live} reports on an ended session; ` +
      `sessions: ${await outcomes(server, parallel)}`,
  })

  // 4. Unattended: press play once, the queue plays 24 hours.
  const unattended = await established('unattended')
  await listen(server, unattended, { next: queue(songs, QUEUE_SEED), seconds: DAY, interactEvery: null })
  rows.push({
    strategy: 'Unattended queue (no interaction)',
    accounts: 1,
    gain: await gained(server, [unattended], before),
    note: `sessions: ${await outcomes(server, unattended)}`,
  })

  // 4b. Picking songs: the 10 best-paying songs of the catalogue twice each, skipping after 35 s.
  const picker = await established('picker')
  const best = [...songs].sort((x, y) => y.reward - x.reward || x.id.localeCompare(y.id)).slice(0, 10)
  let picked = 0
  await listen(server, picker, {
    next: () => best[Math.floor(picked++ / 2) % best.length]!,
    seconds: 21 * 35,
    interactEvery: 60,
    skipAfter: 35,
  })
  rows.push({
    strategy: 'Picking the 10 best-paying songs, twice each',
    accounts: 1,
    gain: await gained(server, [picker], before),
    note: `rewards ${best.map((b) => b.reward).join(', ')}; sessions: ${await outcomes(server, picker)}`,
  })

  // 5. Fresh sign-ups from one address (sign-up limit raised for the bench), after the proposal.
  for (const count of [10, SYBILS]) {
    const from = count === 10 ? '127.0.0.10' : '127.0.0.11'
    const { accounts, linked } = await sybils(server, count, from, `sybil${count}-`)
    await track(accounts)
    const welcome = await gained(server, accounts, before)
    if (count === SYBILS) {
      // Proposal capture: the accounts made after p1 vote on it, then propose and vote on their own.
      const refusals: Record<string, number> = {}
      for (const a of accounts) {
        const r = await rpc(server, a, 'cast_vote', { p_proposal_id: p1Id, p_choice: 'for' })
        const why = r.status === 200 ? 'counted' : String(r.json?.message ?? r.status)
        refusals[why] = (refusals[why] ?? 0) + 1
      }
      const p2 = await propose(server, accounts[0]!, 'Abuse bench: the sybils\u2019 own proposal')
      const p2Id = p2.status === 200 ? (p2.json.proposal.id as string) : null
      const p2Refusals: Record<string, number> = {}
      if (p2Id) {
        for (const a of accounts) {
          const r = await rpc(server, a, 'cast_vote', { p_proposal_id: p2Id, p_choice: 'for' })
          const why = r.status === 200 ? 'counted' : String(r.json?.message ?? r.status)
          p2Refusals[why] = (p2Refusals[why] ?? 0) + 1
        }
      }
      const closed = await governanceClose(server, author, p2Id ? [p1Id, p2Id] : [p1Id])
      const c1 = closed.find((c) => c.id === p1Id)!
      const c2 = closed.find((c) => c.id === p2Id)
      const unchanged = c1.votes_for === p1Before.votes_for && c1.votes_against === p1Before.votes_against
      rows.push({
        strategy: `Proposal capture: ${accounts.length} accounts made after it`,
        accounts: accounts.length,
        gain: { spendable: 0, unlocked: 0, pot: 0, power: 0 },
        verdict: {
          pass: unchanged && c1.status === p1Expected && (!c2 || c2.status !== 'passed'),
          note:
            `their votes on it: ${Object.entries(refusals)
              .map(([k, v]) => `${v} ${k}`)
              .join(', ')}; ` +
            `result ${c1.status} ${c1.votes_for}–${c1.votes_against}, as before them; ` +
            (c2
              ? `their own proposal: ${Object.entries(p2Refusals)
                  .map(([k, v]) => `${v} ${k}`)
                  .join(', ')}, ${c2.status} ${c2.votes_for}–${c2.votes_against}`
              : `their own proposal refused: ${p2.status}`),
        },
        note: '',
      })
    }
    await inBatches(accounts, 10, (a) => listen(server, a, skipper(songs)))
    const total = await gained(server, accounts, before)
    rows.push({
      strategy: `${count} fresh sign-ups, one address`,
      accounts: accounts.length,
      gain: total,
      note: `${linked} wallets linked; welcome ${welcome.spendable / accounts.length} per account, locked`,
    })
    if (count === SYBILS) {
      // After their day of listening the same accounts propose again: power per account is an honest listener's.
      const p3 = await propose(server, accounts[1]!, 'Abuse bench: the sybils\u2019 proposal after a day of listening')
      let p3Note = `refused: ${p3.status}`
      if (p3.status === 200) {
        const p3Id = p3.json.proposal.id as string
        for (const a of accounts) await rpc(server, a, 'cast_vote', { p_proposal_id: p3Id, p_choice: 'for' })
        const [c3] = await governanceClose(server, author, [p3Id])
        const [snap] = await sql<{ total: string; quorum: string }>(
          server,
          'select snapshot_power::text as total, quorum_power::text as quorum from public.proposals where id = $1',
          [p3Id],
        )
        p3Note =
          `${c3!.status} ${c3!.votes_for}\u2013${c3!.votes_against} ` +
          `(snapshot power ${snap!.total}, quorum ${snap!.quorum}, nobody else voted)`
      }
      rows.push({
        strategy: `The ${accounts.length} sign-ups propose after their day of listening`,
        accounts: accounts.length,
        gain: { spendable: 0, unlocked: 0, pot: 0, power: total.power },
        verdict: {
          pass: total.power / accounts.length <= honest.power,
          note: `voting power per account vs honest ${honest.power}; ${p3Note}`,
        },
        note: '',
      })
      notes.push(
        `After their day of listening the ${accounts.length} sign-ups hold ${total.power} voting power for the next proposal ` +
          `(${(total.power / accounts.length).toFixed(0)} each, the honest listener's ${honest.power}): power per account is the ` +
          'same as an honest listener\u2019s, so many listening accounts add up; the sign-up limit per address is the brake.',
      )
    }
  }

  // 6. Self-sharing: 10 links (the daily cap) opened by the sharer, by a second own account on the
  //    same address, and, outside what the server can tell apart, from a second address.
  const sharer = await established('sharer', '127.0.0.60')
  const second = await established('second', '127.0.0.60')
  const links: string[] = []
  for (const song of songs.slice(0, 10))
    links.push((await mustRpc(server, sharer, 'share_create', { p_item_type: 'song', p_item_id: song.id, p_platform: 'qr' })).token)
  const reasons: Record<string, number> = {}
  for (const token of links) {
    for (const [who, from] of [
      [sharer, sharer.from],
      [second, second.from],
    ] as const) {
      const r = await openShared(server, who, token, from)
      reasons[r.reason] = (reasons[r.reason] ?? 0) + 1
    }
  }
  rows.push({
    strategy: 'Self-sharing, same address (own account + second own account)',
    accounts: 2,
    gain: await gained(server, [sharer, second], before),
    note: Object.entries(reasons)
      .map(([k, v]) => `${v} ${k}`)
      .join(', '),
  })
  const farSharer = await established('far-sharer')
  const farLinks: string[] = []
  for (const song of songs.slice(0, 12)) {
    farLinks.push((await mustRpc(server, farSharer, 'share_create', { p_item_type: 'song', p_item_id: song.id, p_platform: 'qr' })).token)
  }
  let farPaid = 0
  for (const token of farLinks) if ((await openShared(server, null, token, '127.0.0.31')).credited) farPaid++
  rows.push({
    strategy: 'Self-sharing from a second address (VPN, phone)',
    accounts: 1,
    gain: await gained(server, [farSharer], before),
    note: `${farPaid} of ${farLinks.length} opens paid: one visitor pays a sharer once a day, whatever links it opens`,
  })
  // Ten addresses, one per link (VPN hopping), against an honest sharer whose ten friends each open
  // one link: to the server the two are the same ten distinct visitors.
  const shareTen = async (who: Awaited<ReturnType<typeof established>>, firstOctet: number) => {
    let paid = 0
    for (const [i, song] of songs.slice(0, 10).entries()) {
      const { token } = await mustRpc(server, who, 'share_create', { p_item_type: 'song', p_item_id: song.id, p_platform: 'qr' })
      if ((await openShared(server, null, token, `127.0.${firstOctet}.${i + 1}`)).credited) paid++
    }
    return paid
  }
  const honestSharer = await established('honest-sharer')
  const friendsPaid = await shareTen(honestSharer, 40)
  const hopper = await established('vpn-hopper')
  const hopsPaid = await shareTen(hopper, 41)
  const honestShares = value(await gained(server, [honestSharer], before))
  const hopperGain = await gained(server, [hopper], before)
  rows.push({
    strategy: 'Self-sharing through 10 addresses (VPN hopping), vs an honest sharer',
    accounts: 1,
    gain: hopperGain,
    baseline: honestShares,
    note:
      `${hopsPaid} of 10 opens paid; ratio against an honest sharer whose 10 friends opened the links (${friendsPaid} paid, ` +
      `${honestShares} CUBE): ten never-seen addresses are ten visitors to the server`,
  })

  // 7. Creator farming: a creator's song played by fresh accounts on the creator's address, and by
  //    week-old accounts on another address.
  const creator = await established('creator', '127.0.0.20')
  await sql(
    server,
    'insert into public.songs (id, title, artist, duration_seconds, reward, slug, owner_id, audio_url) ' +
      "values ('abuse-farm', 'Farm', 'Creator', 120, 2, 'abuse-farm', $1, '/storage/v1/object/public/published/abuse-farm.wav')",
    [creator.id],
  )
  await sql(server, "insert into public.account_clients (user_id, client_address) values ($1, '127.0.0.20') on conflict do nothing", [
    creator.id,
  ])
  const farm = (await sybils(server, 10, '127.0.0.20', 'farm')).accounts
  await track(farm)
  const farmSongs = [{ id: 'abuse-farm', duration: 120, reward: 2 }]
  const farmPlan = (): Listening => {
    const rest = queue(songs, QUEUE_SEED)
    let n = 0
    return { next: () => (n++ < 2 ? farmSongs[0]! : rest()), seconds: 21 * 35, interactEvery: 60, skipAfter: 35 }
  }
  await inBatches(farm, 10, (a) => listen(server, a, farmPlan()))
  const creatorPaidLinked = await sql<{ n: string }>(
    server,
    "select count(*)::text as n from public.token_ledger where user_id = $1 and reason = 'creator'",
    [creator.id],
  )
  rows.push({
    strategy: 'Creator farming: 10 fresh accounts on the creator\u2019s address',
    accounts: farm.length + 1,
    gain: await gained(server, [creator, ...farm], before),
    note: `creator paid for ${creatorPaidLinked[0]!.n} of ${farm.length * 2} listens (linked)`,
  })
  const creator2 = await established('creator2', '127.0.0.21')
  await sql(
    server,
    'insert into public.songs (id, title, artist, duration_seconds, reward, slug, owner_id, audio_url) ' +
      "values ('abuse-farm-2', 'Farm 2', 'Creator', 120, 2, 'abuse-farm-2', $1, '/storage/v1/object/public/published/abuse-farm-2.wav')",
    [creator2.id],
  )
  await sql(server, "insert into public.account_clients (user_id, client_address) values ($1, '127.0.0.21') on conflict do nothing", [
    creator2.id,
  ])
  const aged: Account[] = []
  for (let i = 0; i < 10; i++) aged.push(await established('aged', '127.0.0.22'))
  const farm2Plan = (): Listening => {
    const rest = queue(songs, QUEUE_SEED)
    let n = 0
    return {
      next: () => (n++ < 2 ? { id: 'abuse-farm-2', duration: 120, reward: 2 } : rest()),
      seconds: 21 * 35,
      interactEvery: 60,
      skipAfter: 35,
    }
  }
  await inBatches(aged, 10, (a) => listen(server, a, farm2Plan()))
  const creatorPaidFar = await sql<{ n: string }>(
    server,
    "select count(*)::text as n from public.token_ledger where user_id = $1 and reason = 'creator'",
    [creator2.id],
  )
  rows.push({
    strategy: 'Creator farming: 10 week-old accounts on another address',
    accounts: aged.length + 1,
    gain: await gained(server, [creator2, ...aged], before),
    note: `creator paid for ${creatorPaidFar[0]!.n} of ${aged.length * 2} listens (not linked: undetectable)`,
  })

  // 8. Re-delegation around the proposal (measured above, before anyone listened).
  const ringOwnPower = Number(ringOwn[0]!.own)
  const ringCast = Number(castByRing!.power)
  rows.push({
    strategy: 'Re-delegation around a proposal (4 accounts)',
    accounts: 4,
    gain: { spendable: 0, unlocked: 0, pot: 0, power: ringCast },
    verdict: {
      pass: ringCast <= ringOwnPower,
      note: `votes cast ${ringCast} of their snapshot own power ${ringOwnPower} (${ringVotes.join('; ')})`,
    },
    note: '',
  })
  const addressRows = await perAddress(server, songs, before, established)
  return { rows, honest, notes, addressRows }
}

// --- per address: what one attacking address gets, next to one honest listener and a family --------

/** Per attacking address and UTC day, summed over its accounts. */
interface AddressGain {
  earned: number
  votable: number
  claimable: number
  /** Voting power the address's accounts would bring to a proposal created now. */
  votes: number
}
interface AddressRow {
  strategy: string
  addresses: number
  accounts: number
  /** Summed over all the strategy's addresses. */
  total: AddressGain
  /** Simulated seconds the strategy took (per-hour figures divide by it, at least an hour). */
  seconds: number
  /** Chart positions that changed (songs entering, leaving or moving), when the strategy aims at the chart. */
  chartMoved?: number
  /** The target this row is held to, when it has one. */
  verdict?: { pass: boolean; target: string }
  /** Accounts younger than the trust rule: held to 0 votes, 0 claimable and at most 2x an honest listener's votable. */
  fresh?: boolean
  note: string
}

const ADDRESSES = Number(process.env.ABUSE_ADDRESSES ?? 5)
const PER_ADDRESS = Number(process.env.ABUSE_PER_ADDRESS ?? 30)

async function addressGain(server: LocalServer, accounts: Account[], before: Map<string, Figures>): Promise<AddressGain> {
  const g = await gained(server, accounts, before)
  return { earned: g.spendable, votable: g.unlocked, claimable: g.pot, votes: g.power }
}

/** Each account comments on ten songs, replies to ten and likes twenty of the others' comments. */
async function commentRing(server: LocalServer, accounts: Account[], songs: Song[]): Promise<Record<string, number>> {
  const mine = new Map<string, { id: string; song: string }[]>()
  const credited: Record<string, number> = {}
  const count = (r: Answer) => {
    for (const c of (r.json?.credited ?? []) as { reason: string; amount: number }[])
      credited[c.reason] = (credited[c.reason] ?? 0) + c.amount
  }
  await inBatches(accounts, 10, async (a) => {
    const list: { id: string; song: string }[] = []
    for (const song of songs.slice(0, 10)) {
      const r = await rpc(server, a, 'post_comment', { p_song_id: song.id, p_body: `ring ${song.id}` })
      count(r)
      if (r.status === 200) list.push({ id: r.json.comment.id, song: song.id })
    }
    mine.set(a.id, list)
  })
  await inBatches(accounts, 10, async (a) => {
    const others = accounts.filter((o) => o !== a).flatMap((o) => mine.get(o.id) ?? [])
    for (const c of others.slice(0, 10))
      count(await rpc(server, a, 'post_comment', { p_song_id: c.song, p_body: 'ring reply', p_parent_id: c.id }))
    for (const c of others.slice(0, 20)) count(await rpc(server, a, 'set_comment_like', { p_comment_id: c.id, p_liked: true }))
  })
  return credited
}

const credits = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'nothing'

async function perAddress(
  server: LocalServer,
  songs: Song[],
  before: Map<string, Figures>,
  established: (label: string, from?: string, history?: History) => Promise<Account>,
): Promise<AddressRow[]> {
  const rows: AddressRow[] = []
  const track = (accounts: Account[]) => Promise.all(accounts.map(async (a) => before.set(a.id, await figures(server, a))))
  const honestDay = Math.min(8 * 3600, DAY)

  // An honest family of four on one address: each listens as the honest listener does and writes five comments.
  const family: Account[] = []
  for (let i = 0; i < 4; i++) family.push(await established('family', '127.0.0.70', ESTABLISHED))
  await Promise.all(
    family.map((a, i) => listen(server, a, { next: queue(songs, QUEUE_SEED + i), seconds: honestDay, interactEvery: 20 * 60 })),
  )
  for (const a of family)
    for (const song of songs.slice(0, 5)) await rpc(server, a, 'post_comment', { p_song_id: song.id, p_body: 'lovely' })
  rows.push({
    strategy: 'Honest family of four, one address (8 h of listening, 5 comments each)',
    addresses: 1,
    accounts: 4,
    total: await addressGain(server, family, before),
    seconds: honestDay,
    note: 'established accounts; a household is not a ring',
  })

  // Parallel sybils on one address: fresh sign-ups listening to their caps and paying each other.
  const farm = (await sybils(server, PER_ADDRESS, '127.0.0.80', 'farm-address')).accounts
  await track(farm)
  await inBatches(farm, 10, (a) => listen(server, a, skipper(songs)))
  const farmCredits = await commentRing(server, farm, songs)
  const farmDay = await addressGain(server, farm, before)
  // The same accounts after waiting out the age rule with listening on three days: still a ring.
  for (const a of farm) await establish(server, a)
  const farmLater = await addressGain(server, farm, before)
  rows.push({
    strategy: `Parallel sybils: ${farm.length} fresh sign-ups on one address (listen, comment, reply, like)`,
    addresses: 1,
    accounts: farm.length,
    total: farmDay,
    seconds: 21 * 35,
    fresh: true,
    note:
      `comment ring credited ${credits(farmCredits)}; after a week and 3 days of listening: ` +
      `votable ${farmLater.votable}, votes ${farmLater.votes} (a ring is never trusted)`,
  })

  // Sybils over N addresses, each below the ring size, aged and with listening history (they waited).
  const spread: Account[] = []
  for (let n = 0; n < ADDRESSES; n++) for (let i = 0; i < 5; i++) spread.push(await established('spread', `127.0.81.${n + 1}`))
  await inBatches(spread, 10, (a) => listen(server, a, skipper(songs)))
  const spreadCredits: Record<string, number> = {}
  for (let n = 0; n < ADDRESSES; n++) {
    const c = await commentRing(server, spread.slice(n * 5, n * 5 + 5), songs)
    for (const [k, v] of Object.entries(c)) spreadCredits[k] = (spreadCredits[k] ?? 0) + v
  }
  rows.push({
    strategy: `Sybils over ${ADDRESSES} addresses: 5 aged, trusted accounts each (listen, comment ring within each address)`,
    addresses: ADDRESSES,
    accounts: spread.length,
    total: await addressGain(server, spread, before),
    seconds: 21 * 35,
    note: `comment rings credited ${credits(spreadCredits)}; replies and likes between accounts of one address pay nothing`,
  })

  // A comment ring of three fresh accounts on one address.
  const ring = (await sybils(server, 3, '127.0.0.82', 'comment-ring')).accounts
  await track(ring)
  const ringCredits = await commentRing(server, ring, songs)
  rows.push({
    strategy: 'Comment ring: 3 fresh accounts, one address',
    addresses: 1,
    accounts: 3,
    total: await addressGain(server, ring, before),
    seconds: 600,
    note: `credited ${credits(ringCredits)}`,
  })
  rows.push(...(await moreAddressRows(server, songs, before, established, { family, farm, spread })))
  return rows
}

// --- the chart, presence, proposals decided by honest voters, short plays, other sites' pages -----

/** The chart as recommend_songs ranks it: songs in order of plays (distinct trusted listener-days). */
const chart = async (server: LocalServer) =>
  (await sql<{ song_id: string }>(server, 'select song_id from public.chart_plays() order by plays desc, song_id')).map((r) => r.song_id)

/** How many chart positions differ between two charts (a song entering, leaving or moving). */
function positionsMoved(before: string[], after: string[]): number {
  let moved = 0
  for (let i = 0; i < Math.max(before.length, after.length); i++) if (before[i] !== after[i]) moved++
  return moved
}

/** Each account reports `plays` offline plays of `songId` (the sync after a flight), dated over the last hours. */
async function offlineFlood(server: LocalServer, accounts: Account[], songId: string, plays: number): Promise<Record<string, number>> {
  const reasons: Record<string, number> = {}
  await inBatches(accounts, 10, async (a) => {
    for (let i = 0; i < plays; i++) {
      const r = await rpc(server, a, 'listen_offline', {
        p_song_id: songId,
        p_play_id: playKey(),
        p_played_at: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
      })
      const why = r.status === 200 ? String(r.json.reason) : String(r.json?.message ?? r.status)
      reasons[why] = (reasons[why] ?? 0) + 1
    }
  })
  return reasons
}

/** A supabase-js client whose sockets leave from `from` (each tab of the attacker a socket of its own). */
function realtimeFrom(server: LocalServer, from: string) {
  class BoundSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { localAddress: from })
    }
  }
  return createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: BoundSocket as unknown as typeof globalThis.WebSocket },
  })
}

const joined = (channel: RealtimeChannel) =>
  new Promise<string>((resolve) => {
    channel.subscribe((status) => {
      if (status !== 'CLOSED') resolve(status)
    })
  })

/** `tabs` players of one address present on a radio topic; what an honest listener elsewhere sees counted. */
async function presenceInflation(server: LocalServer, tabs: number): Promise<{ seen: number; refused: number }> {
  const topic = 'radio:abuse:bench'
  const watcherClient = realtimeFrom(server, '127.0.0.95')
  const watcher = watcherClient.channel(topic, { config: { presence: { key: 'watcher' } } })
  watcher.on('presence', { event: 'sync' }, () => undefined)
  await joined(watcher)
  const clients = Array.from({ length: tabs }, () => realtimeFrom(server, '127.0.0.96'))
  let refused = 0
  for (const [i, c] of clients.entries()) {
    const ch = c.channel(topic, { config: { presence: { key: `tab-${i}` } } })
    ch.on('presence', { event: 'sync' }, () => undefined)
    if ((await joined(ch)) !== 'SUBSCRIBED') {
      refused++
      continue
    }
    if ((await ch.track({ since: new Date().toISOString() })) !== 'ok') refused++
  }
  // Presence diffs arrive after the tracks are answered: poll until the count holds still.
  let seen = -1
  for (let i = 0, still = 0; i < 100 && still < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    const now = Object.keys(watcher.presenceState()).filter((k) => k !== 'watcher').length
    still = now === seen ? still + 1 : 0
    seen = now
  }
  for (const c of [watcherClient, ...clients]) {
    await c.removeAllChannels()
    c.realtime.disconnect()
  }
  return { seen, refused }
}

async function moreAddressRows(
  server: LocalServer,
  songs: Song[],
  before: Map<string, Figures>,
  established: (label: string, from?: string, history?: History) => Promise<Account>,
  crowd: { family: Account[]; farm: Account[]; spread: Account[] },
): Promise<AddressRow[]> {
  const rows: AddressRow[] = []
  const { family, farm, spread } = crowd

  // Sybils over N addresses against a proposal the honest, trusted family decides (they vote
  // against it; the aged sybils, trusted too, all vote for it).
  const author = await established('decided-author')
  await sql(server, 'update public.user_tokens set balance = balance + 200 where user_id = $1', [author.id])
  await sql(
    server,
    'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key) ' +
      "values ($1::uuid, 200, 'listen', 'history-song-0', 'bench-top-up:' || $1::text)",
    [author.id],
  )
  const proposal = await propose(server, author, 'Abuse bench: a proposal the honest voters decide')
  if (proposal.status !== 200) throw new Error(`create_proposal: ${proposal.status} ${JSON.stringify(proposal.json)}`)
  const pid = proposal.json.proposal.id as string
  const familyVotes: Record<string, number> = {}
  for (const a of family) {
    const r = await rpc(server, a, 'cast_vote', { p_proposal_id: pid, p_choice: 'against' })
    const why = r.status === 200 ? 'counted' : String(r.json?.message ?? r.status)
    familyVotes[why] = (familyVotes[why] ?? 0) + 1
  }
  const [honestTally] = await sql<{ votes_for: string; votes_against: string; quorum_power: string }>(
    server,
    'select votes_for::text, votes_against::text, quorum_power::text from public.proposals where id = $1',
    [pid],
  )
  const honestYes = Number(honestTally!.votes_for)
  const honestNo = Number(honestTally!.votes_against)
  const decided = honestYes > honestNo && honestYes + honestNo >= Number(honestTally!.quorum_power) ? 'passed' : 'rejected'
  const sybilVotes: Record<string, number> = {}
  for (const a of spread) {
    const r = await rpc(server, a, 'cast_vote', { p_proposal_id: pid, p_choice: 'for' })
    const why = r.status === 200 ? 'counted' : String(r.json?.message ?? r.status)
    sybilVotes[why] = (sybilVotes[why] ?? 0) + 1
  }
  const [closed] = await governanceClose(server, author, [pid])
  const [power] = await sql<{ power: string }>(
    server,
    'select coalesce(sum(power), 0)::text as power from public.votes where proposal_id = $1 and user_id = any ($2::uuid[])',
    [pid, spread.map((a) => a.id)],
  )
  rows.push({
    strategy: `Sybils over ${ADDRESSES} addresses (5 aged each) vote against what 4 honest trusted voters decide`,
    addresses: ADDRESSES,
    accounts: spread.length,
    total: { earned: 0, votable: 0, claimable: 0, votes: Number(power!.power) },
    seconds: 600,
    verdict: { pass: closed!.status === decided, target: 'N addresses of sybils move no proposal honest trusted voters decide' },
    note:
      `honest votes ${credits(familyVotes)}, alone: ${decided} ${honestYes}\u2013${honestNo}; sybil votes ${credits(sybilVotes)}; ` +
      `closed ${closed!.status} ${closed!.votes_for}\u2013${closed!.votes_against}`,
  })

  // Offline-play floods of one song nobody else plays: the fresh farm on one address, then nine of
  // the aged sybils (one short of the chart's distinct listeners).
  const target = await established('chart-owner', '127.0.0.90')
  await sql(
    server,
    'insert into public.songs (id, title, artist, duration_seconds, reward, slug, owner_id, audio_url) ' +
      "values ('abuse-chart', 'Chart', 'Climber', 120, 2, 'abuse-chart', $1, '/storage/v1/object/public/published/abuse-chart.wav')",
    [target.id],
  )
  for (const [label, accounts] of [
    [`${farm.length} fresh sign-ups on one address`, farm],
    [`9 aged, trusted sybils over ${ADDRESSES} addresses`, spread.slice(0, 9)],
  ] as const) {
    const chartBefore = await chart(server)
    const figuresBefore = await addressGain(server, [...accounts], before)
    const reasons = await offlineFlood(server, [...accounts], 'abuse-chart', 50)
    const after = await addressGain(server, [...accounts], before)
    const moved = positionsMoved(chartBefore, await chart(server))
    const addresses = new Set(accounts.map((a) => a.from)).size
    rows.push({
      strategy: `Offline-play flood: ${label}, 50 offline plays each of one song`,
      addresses,
      accounts: accounts.length,
      total: {
        earned: after.earned - figuresBefore.earned,
        votable: after.votable - figuresBefore.votable,
        claimable: after.claimable - figuresBefore.claimable,
        votes: after.votes - figuresBefore.votes,
      },
      seconds: 3600,
      chartMoved: moved,
      verdict: { pass: moved === 0, target: 'no chart position moves with < 10 distinct trusted listeners' },
      note: `offline plays ${credits(reasons)}; chart positions moved ${moved}`,
    })
  }

  // Presence inflation: 30 tabs of one address on one radio topic, counted by a listener elsewhere.
  const presence = await presenceInflation(server, 30)
  rows.push({
    strategy: 'Presence inflation: 30 radio tabs from one address',
    addresses: 1,
    accounts: 0,
    total: { earned: 0, votable: 0, claimable: 0, votes: 0 },
    seconds: 600,
    verdict: { pass: presence.seen <= 4, target: 'one address shows at most 4 listeners (a household)' },
    note: `the listener count shows ${presence.seen} of 30; ${presence.refused} tabs refused`,
  })

  // Declared-short tracks: the client says each song ended after 3 s, and tries to record a 5 s
  // length for a track itself (only the server's measure-audio may).
  const short = await established('short')
  const started = await figures(server, short)
  const reports: Record<string, number> = {}
  for (const song of songs.slice(0, 30)) {
    const s = await mustRpc(server, short, 'listen_start', { p_song_id: song.id, p_play_id: playKey(), p_interacted: true })
    await advance(server, [short.id], 3)
    const r = await mustRpc(server, short, 'listen_report', {
      p_session_id: s.session_id,
      p_playing: true,
      p_interacted: true,
      p_ended: true,
    })
    const why = `${r.reason ?? 'open'}, ${r.credited} CUBE`
    reports[why] = (reports[why] ?? 0) + 1
  }
  const recorded = await rpc(server, short, 'record_audio_duration', { p_path: 'published/x.webm', p_size: 1000, p_seconds: 5 })
  const shortGain = await addressGain(server, [short], new Map([[short.id, started]]))
  rows.push({
    strategy: 'Declared-short tracks: 30 songs reported ended after 3 s; a 5 s length recorded by the client',
    addresses: 1,
    accounts: 1,
    total: shortGain,
    seconds: 30 * 3,
    verdict: { pass: shortGain.earned === 0, target: 'a listen shorter than the qualifying time earns nothing' },
    note: `sessions ${credits(reports)}; record_audio_duration answered ${recorded.status}`,
  })

  // Cross-site share opens: another site's page opens ten of a sharer's links from ten addresses.
  const sharer = await established('cross-sharer')
  const shareStart = await figures(server, sharer)
  const opens: Record<string, number> = {}
  for (const [i, song] of songs.slice(0, 10).entries()) {
    const { token } = await mustRpc(server, sharer, 'share_create', { p_item_type: 'song', p_item_id: song.id, p_platform: 'qr' })
    const elsewhere = { Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' }
    const from = `127.0.91.${i + 1}`
    const begun = await call(server, '/rest/v1/rpc/share_visit_begin', { p_token: token }, undefined, from, elsewhere)
    const opened = await call(
      server,
      '/rest/v1/rpc/open_share',
      { p_token: token, p_nonce: begun.json?.nonce ?? null },
      undefined,
      from,
      elsewhere,
    )
    const why = opened.status === 200 ? String(opened.json.reason) : String(opened.json?.message ?? opened.status)
    opens[why] = (opens[why] ?? 0) + 1
  }
  const crossGain = await addressGain(server, [sharer], new Map([[sharer.id, shareStart]]))
  rows.push({
    strategy: 'Cross-site share opens: another site opens 10 links from 10 addresses',
    addresses: 10,
    accounts: 1,
    total: crossGain,
    seconds: 600,
    verdict: { pass: crossGain.earned === 0, target: 'a share opened by another site pays nothing' },
    note: `opens ${credits(opens)}`,
  })
  return rows
}

const perAccount = (g: Gain, n: number): Gain => ({
  spendable: g.spendable / n,
  unlocked: g.unlocked / n,
  pot: g.pot / n,
  power: g.power / n,
})
/** CUBE an account can vote with or take out: unlocked balance gained plus the claimable pot. */
const value = (g: Gain) => g.unlocked + g.pot

export async function run(): Promise<BenchResult[]> {
  const started = performance.now()
  const limits = await defaultLimits()
  // Scripted accounts, as in the test suites: confirmed at sign-up, beyond the per-address sign-up limits.
  const server = await startLocalServer({ ...SCRIPTED_SERVER_OPTIONS, port: 0, embeddedChain: false })
  let sim: Awaited<ReturnType<typeof simulate>>
  try {
    sim = await simulate(server)
  } finally {
    await server.close()
    for (const agent of agents.values()) agent.destroy()
  }
  const honest = value(sim.honest)
  const out: BenchResult[] = [
    {
      name: 'Honest listener (8 h of the catalogue)',
      value: honest,
      unit: 'CUBE/account',
      detail: `spendable ${sim.honest.spendable}, unlocked ${sim.honest.unlocked}, pot ${sim.honest.pot}, power +${sim.honest.power}`,
    },
  ]
  const table: string[][] = [
    [
      'Honest listener (8 h of the catalogue, a touch every 20 min)',
      '1',
      f(sim.honest.spendable),
      f(sim.honest.unlocked),
      f(sim.honest.pot),
      f(sim.honest.power),
      f(honest),
      '1.00',
      '–',
    ],
  ]
  let allPass = true
  for (const row of sim.rows) {
    const g = perAccount(row.gain, row.accounts)
    const reference = row.baseline ?? honest
    const ratio = reference > 0 ? value(g) / reference : 0
    const pass = row.verdict ? row.verdict.pass : value(g) <= reference
    allPass &&= pass
    const note = row.verdict ? row.verdict.note : row.note
    out.push({
      name: row.strategy,
      value: row.verdict ? g.power : value(g),
      unit: row.verdict ? 'votes/account' : 'CUBE/account',
      detail: `${row.verdict ? '' : `${ratio.toFixed(2)}x honest, spendable ${f(g.spendable)}; `}${pass ? 'PASS' : 'FAIL'}: ${note}`,
    })
    table.push([
      row.strategy,
      String(row.accounts),
      row.verdict ? '–' : f(g.spendable),
      row.verdict ? '–' : f(g.unlocked),
      row.verdict ? '–' : f(g.pot),
      f(g.power),
      row.verdict ? '–' : f(value(g)),
      row.verdict ? '–' : ratio.toFixed(2),
      `${pass ? 'pass' : '**fail**'}: ${note}`,
    ])
  }
  out.push({
    name: 'Default sign-up limit: 100 sign-ups from one address',
    value: limits.signups,
    unit: 'accepted',
    detail:
      `of ${limits.tried} in the hour (LOCAL_SIGNUP_RATE_LIMIT default 30/h); ` +
      `wallet links accepted ${limits.links} of ${limits.signups} (default 10/h)`,
  })
  out.push({
    name: 'All targets',
    value: allPass ? 1 : 0,
    unit: allPass ? 'pass' : 'FAIL',
    detail: `${((performance.now() - started) / 1000).toFixed(0)} s`,
  })
  console.log('\n| Strategy | Accounts | Spendable | Unlocked | Pot | Power | CUBE/account | vs honest | Target |')
  console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --- |')
  for (const r of table) console.log(`| ${r.join(' | ')} |`)
  for (const n of sim.notes) console.log(`\n${n}`)

  // Per attacking address: per UTC day and per hour, next to one honest listener (on its own address).
  const honestHours = Math.max(1, Math.min(8 * 3600, DAY) / 3600)
  const honestRow = (x: number) => [f(x), f(x / honestHours)]
  const addressTable: string[][] = [
    [
      'Honest listener, one address (8 h)',
      '1',
      '1',
      ...honestRow(sim.honest.spendable),
      ...honestRow(sim.honest.unlocked),
      ...honestRow(sim.honest.pot),
      ...honestRow(sim.honest.power),
      '–',
      '1.00',
      '–',
    ],
  ]
  for (const r of sim.addressRows) {
    const per = (x: number) => x / r.addresses
    const hours = Math.max(1, r.seconds / 3600)
    const both = (x: number) => [f(per(x)), f(per(x) / hours)]
    const ratio = sim.honest.unlocked > 0 ? per(r.total.votable) / sim.honest.unlocked : 0
    const verdicts = r.verdict ? [r.verdict] : []
    if (r.fresh) {
      verdicts.push({
        pass: r.total.votes === 0 && r.total.claimable === 0,
        target: 'accounts younger than the trust rule hold 0 votes and 0 claimable',
      })
      verdicts.push({
        pass: per(r.total.votable) <= 2 * sim.honest.unlocked,
        target: `${r.accounts} fresh accounts on one address \u2264 2x one honest listener's votable CUBE per day`,
      })
    }
    for (const v of verdicts) allPass &&= v.pass
    const target = verdicts.map((v) => `${v.pass ? 'pass' : '**fail**'}: ${v.target}`).join('; ') || '–'
    addressTable.push([
      r.strategy,
      String(r.addresses),
      String(r.accounts),
      ...both(r.total.earned),
      ...both(r.total.votable),
      ...both(r.total.claimable),
      ...both(r.total.votes),
      r.chartMoved === undefined ? '–' : String(r.chartMoved),
      ratio.toFixed(2),
      target,
    ])
    out.push({
      name: `Per address: ${r.strategy}`,
      value: per(r.total.votable),
      unit: 'votable CUBE/address/day',
      detail:
        `earned ${f(per(r.total.earned))}, claimable ${f(per(r.total.claimable))}, votes ${f(per(r.total.votes))} per address` +
        `${r.chartMoved === undefined ? '' : `, chart positions moved ${r.chartMoved}`}; ` +
        `${ratio.toFixed(2)}x the honest listener's votable; ${target}; ${r.note}`,
    })
  }
  out.push({ name: 'All targets, per address too', value: allPass ? 1 : 0, unit: allPass ? 'pass' : 'FAIL' })
  console.log(
    '\n| Per address | Addresses | Accounts | Earned/day | Earned/h | Votable/day | Votable/h | Claimable/day | Claimable/h | ' +
      'Votes capturable/day | Votes/h | Chart positions moved | Votable vs honest | Target |',
  )
  console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |')
  for (const r of addressTable) console.log(`| ${r.join(' | ')} |`)
  for (const r of sim.addressRows) console.log(`- ${r.strategy}: ${r.note}`)
  return out
}

function f(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}: ${r.value} ${r.unit}${r.detail ? ` (${r.detail})` : ''}`)
}
