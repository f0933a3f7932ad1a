/**
 * A credited listen as SQL alone: pgbench (PostgreSQL's own load generator, written in C) sends,
 * from 50 connections at once, the transaction the local server sends for POST
 * /rest/v1/rpc/listen_report (role and claims, the pre-request check, the call, commit), with no
 * HTTP and no Node in between. Every transaction credits a listen: each uses its own listener,
 * whose session has been open for 45 s (set up by superuser SQL before the timed part), so the
 * figure is of the full crediting path (ledger posting, wallet, history), not of a refusal.
 * Baseline in the same run: the same transaction calling `select 1` instead of listen_report.
 * Three shapes, each on listeners of its own: 50 connections (the backend bench's 50 clients, each
 * on its own connection), 10 (the local server's pool, DATABASE_POOL_SIZE) and 2 (one per core of
 * this machine: pgbench's best here), 10,000 listens each. SQL_BENCH_CONNECTIONS runs one shape
 * with that many connections instead.
 *
 * Run: npm run bench -- listen-sql    (or standalone: npx tsx bench/node/listen-sql.bench.ts)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import { findPostgresBin, startPostgresCluster } from '../../tests/backend/support/postgres-cluster.ts'
import type { BenchResult } from '../types.ts'

const SHAPES = process.env.SQL_BENCH_CONNECTIONS ? [Number(process.env.SQL_BENCH_CONNECTIONS)] : [50, 10, 2]
const LISTENS_PER_SHAPE = 10_000
/**
 * SQL_BENCH_TRACK=1: print the time spent in each SQL function (pg_stat_user_functions) and in each
 * statement, those inside the functions included (pg_stat_statements, track = all), after the run.
 */
const TRACK_FUNCTIONS = Boolean(process.env.SQL_BENCH_TRACK)
const TRACK_SETTINGS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
  'pg_stat_statements.track_planning': 'on',
}

async function printFunctionTimes(client: pg.Client): Promise<void> {
  // Statistics reach the view at most a second after the transactions end.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const functions = await client.query(
    `select funcname, calls, round((total_time / calls)::numeric, 3) as total_ms, round((self_time / calls)::numeric, 3) as self_ms
       from pg_stat_user_functions where calls > 0 order by self_time desc`,
  )
  console.table(functions.rows)
  const statements = await client.query(
    `select calls, round((total_exec_time / calls)::numeric, 4) as exec_ms, round((total_plan_time / calls)::numeric, 4) as plan_ms,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as statement
       from pg_stat_statements where calls >= $1 order by total_exec_time desc limit 25`,
    [LISTENS_PER_SHAPE / 2],
  )
  console.table(statements.rows)
}

/** One open, 45-second-old session per listener, numbered 0..n-1 for the pgbench clients. */
const SETUP = (n: number) => `
create table public.bench_plan (idx int primary key, user_id uuid not null, session_id uuid not null);
with users as (
  insert into auth.users (email, encrypted_password, raw_app_meta_data, email_confirmed_at, created_at)
  select 'sql-bench-' || i || '@example.com', 'x', '{"provider":"email"}', now(), now() - interval '2 days'
    from generate_series(0, ${n - 1}) i
  returning id, email
), wallets as (
  insert into public.user_tokens (user_id) select id from users returning user_id
), sessions as (
  insert into public.listening_sessions (user_id, play_key, song_id, duration_seconds, reward, started_at, last_report_at)
  select u.id, 'bench', s.id, s.duration_seconds, s.reward, now() - interval '45 seconds', now() - interval '45 seconds'
    from users u cross join lateral (select id, duration_seconds, reward from public.songs where owner_id is null order by id limit 1) s
  returning id, user_id
)
insert into public.bench_plan (idx, user_id, session_id)
select (regexp_match(u.email, '(\\d+)@'))[1]::int, u.id, s.id from users u join sessions s on s.user_id = u.id;
update public.user_tokens set last_interaction_at = now();
`

/**
 * The transaction the server sends for one listen_report (supabase/local/core/caller.ts openingSql):
 * BEGIN, the settings and the pre-request check as one message (pgbench's \; joins them), the
 * call, COMMIT. The \gset lookup of this transaction's listener is the only extra round trip.
 */
const script = (call: string, perConnection: number, offset: number) => `\\set i :i + 1
\\set idx ${offset} + :client_id * ${perConnection} + :i - 1
select user_id as uid, session_id as sid from public.bench_plan where idx = :idx \\gset
begin \\;
select set_config('role', 'authenticated', true),
       set_config('request.jwt.claims', '{"sub":":uid","role":"authenticated","aal":"aal1"}', true),
       set_config('statement_timeout', '10s', true),
       set_config('request.headers', '{"x-forwarded-for":"127.0.0.1"}', true) \\;
select public.check_request();
${call};
commit;
`

/**
 * What limits the figure: the rows a credited listen must write and nothing else (a ledger row, the
 * wallet, a history row, the session), as plain statements with no reads, no rules and no functions,
 * in the same transaction shape on the same listeners. No listen path can be faster than this.
 */
const WRITES_ONLY = `reset role;
insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key)
values (':uid', 2, 'listen', 'writes-only', 'writes-only:' || ':sid') \\;
update public.user_tokens set balance = balance + 2, listens_today = listens_today + 1, daily_earned = daily_earned + 2
 where user_id = ':uid' \\;
insert into public.user_listening_history (user_id, song_id, listened_at, seconds) values (':uid', 'neon-drift', now(), 45) \\;
update public.listening_sessions set heard_seconds = 45, earning_seconds = 45, credited = 2, outcome = 'credited' where id = ':sid'`

function pgbench(bin: string, url: string, file: string, connections: number): number {
  const out = execFileSync(
    join(bin, 'pgbench'),
    ['-n', '-c', String(connections), '-j', '2', '-t', String(LISTENS_PER_SHAPE / connections), '-D', 'i=0', '-f', file, url],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const tps = /tps = ([\d.]+)/.exec(out)
  if (!tps || !/number of failed transactions: 0 /.test(out)) throw new Error(`pgbench: ${out}`)
  return Number(tps[1])
}

export async function run(): Promise<BenchResult[]> {
  const found = findPostgresBin()
  const cluster = await startPostgresCluster(TRACK_FUNCTIONS ? TRACK_SETTINGS : {})
  if (!found || typeof cluster === 'string') {
    console.warn(`listen-sql bench skipped: ${typeof cluster === 'string' ? cluster : 'no PostgreSQL'}`)
    return []
  }
  const dir = mkdtempSync(join(tmpdir(), 'cube-listen-sql-'))
  try {
    // The local server applies every migration; the bench then talks to PostgreSQL alone.
    await (await startLocalServer({ port: 0, databaseUrl: cluster.url })).close()
    const client = new pg.Client({ connectionString: cluster.url })
    await client.connect()
    const n = SHAPES.length * LISTENS_PER_SHAPE
    try {
      await client.query(SETUP(n))
      if (TRACK_FUNCTIONS) {
        // ALTER SYSTEM refuses to run inside a transaction, so each statement goes on its own.
        for (const statement of [
          "alter system set track_functions = 'all'",
          'select pg_reload_conf()',
          'create extension if not exists pg_stat_statements',
        ])
          await client.query(statement)
      }
      const out: BenchResult[] = []
      for (const [shape, connections] of SHAPES.entries()) {
        const perConnection = LISTENS_PER_SHAPE / connections
        const baselineFile = join(dir, `baseline-${connections}.sql`)
        const listenFile = join(dir, `listen-${connections}.sql`)
        // The baseline reuses the listeners the listens will use; `select 1` changes nothing.
        writeFileSync(baselineFile, script('select 1', perConnection, shape * LISTENS_PER_SHAPE))
        writeFileSync(listenFile, script("select public.listen_report(':sid'::uuid, true)", perConnection, shape * LISTENS_PER_SHAPE))
        const baseline = pgbench(found.bin, cluster.url, baselineFile, connections)
        if (TRACK_FUNCTIONS) for (const reset of ['select pg_stat_reset()', 'select pg_stat_statements_reset()']) await client.query(reset)
        const listens = pgbench(found.bin, cluster.url, listenFile, connections)
        if (TRACK_FUNCTIONS) await printFunctionTimes(client)
        const writesFile = join(dir, `writes-${connections}.sql`)
        writeFileSync(writesFile, script(WRITES_ONLY, perConnection, shape * LISTENS_PER_SHAPE))
        const writesOnly = pgbench(found.bin, cluster.url, writesFile, connections)
        const detail = `pgbench, ${connections} connections, ${LISTENS_PER_SHAPE} transactions, PostgreSQL ${cluster.version}, fsync off`
        out.push(
          { name: `listen_report as SQL, ${connections} connections: credited listens`, value: listens, unit: 'listens/s', detail },
          { name: `same transaction with select 1, ${connections} connections`, value: baseline, unit: 'tx/s', detail },
          { name: `listen_report vs select 1, ${connections} connections`, value: listens / baseline, unit: 'x' },
          {
            name: `its writes alone, ${connections} connections`,
            value: writesOnly,
            unit: 'tx/s',
            detail: 'the floor: no reads, rules or functions',
          },
          { name: `listen_report vs its writes alone, ${connections} connections`, value: listens / writesOnly, unit: 'x' },
        )
      }
      const { rows } = await client.query<{ credited: string; ledger: string }>(
        `select (select count(*) from public.listening_sessions where outcome = 'credited')::text as credited,
                (select count(*) from public.token_ledger where reason = 'listen' and reference <> 'writes-only')::text as ledger`,
      )
      if (Number(rows[0]!.credited) !== n || Number(rows[0]!.ledger) !== n)
        throw new Error(`expected ${n} credited listens, got ${rows[0]!.credited} sessions and ${rows[0]!.ledger} ledger rows`)
      return out
    } finally {
      await client.end()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    cluster.stop()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().then(
    (figures) => {
      for (const r of figures)
        console.log(`${r.name.padEnd(44)} ${r.value.toFixed(r.value >= 100 ? 0 : 2).padStart(8)} ${r.unit}   ${r.detail ?? ''}`)
    },
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
