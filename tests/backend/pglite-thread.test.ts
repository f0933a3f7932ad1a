import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isSqlError } from '../../supabase/local/core/errors.ts'
import type { Database } from '../../supabase/local/core/db.ts'
import { openPgliteThread } from '../../supabase/local/core/pglite-thread.ts'

describe('PGlite on its own thread', () => {
  let db: Database
  beforeAll(async () => {
    db = await openPgliteThread(undefined, undefined)
    await db.exec('create table counter (id int primary key, n int not null); insert into counter values (1, 0);')
  })
  afterAll(() => db.close())

  it('runs concurrent transactions whole, one after another, as its one connection requires', async () => {
    // Each transaction reads, waits, then writes what it read plus one: interleaved, updates would be lost.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction(async (tx) => {
          const { rows } = await tx.query<{ n: number }>('select n from counter where id = 1')
          await new Promise((r) => setTimeout(r, 1))
          await tx.query('update counter set n = $1 where id = 1', [rows[0]!.n + 1])
        }),
      ),
    )
    expect((await db.query<{ n: number }>('select n from counter where id = 1')).rows[0]!.n).toBe(20)
  })

  it('rolls a transaction back when its body throws, and keeps serving', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('update counter set n = -1 where id = 1')
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect((await db.query<{ n: number }>('select n from counter where id = 1')).rows[0]!.n).toBe(20)
  })

  it('raises the database error with its SQLSTATE, detail and hint, as the server maps them', async () => {
    const error = await db.query('insert into counter values (1, 0)').catch((e: unknown) => e)
    expect(isSqlError(error)).toBe(true)
    expect(error).toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.' })
    const raised = await db
      .query(`do $$ begin raise exception 'no such song' using errcode = 'PT404', hint = 'check the id'; end $$`)
      .catch((e: unknown) => e)
    expect(raised).toMatchObject({ code: 'PT404', message: 'no such song', hint: 'check the id' })
  })

  it("reports the opening's refusal, not the aborted statement after it", async () => {
    const error = await db
      .transaction(
        (tx) => tx.query('select 1'),
        `do $$ begin raise exception 'Finish two-factor sign-in first' using errcode = '42501'; end $$`,
      )
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: '42501', message: 'Finish two-factor sign-in first' })
  })

  it('keeps its values: dates, JSON, numbers, bytes and nulls cross the thread as PGlite returns them', async () => {
    const { rows } = await db.query<{ at: Date; doc: unknown; big: number; bytes: Uint8Array; nothing: null }>(
      `select timestamptz '2026-11-27 05:00:00+00' as at, '{"a":[1,2]}'::jsonb as doc, 42::int as big, ` +
        `'\\x0102'::bytea as bytes, null as nothing`,
    )
    expect(rows[0]!.at).toBeInstanceOf(Date)
    expect(rows[0]!.at.toISOString()).toBe('2026-11-27T05:00:00.000Z')
    expect(rows[0]).toMatchObject({ doc: { a: [1, 2] }, big: 42, nothing: null })
    expect([...rows[0]!.bytes]).toEqual([1, 2])
  })

  it('delivers NOTIFY payloads to every listener after the commit, and stops after unlisten', async () => {
    const first: string[] = []
    const second: string[] = []
    const offFirst = await db.listen('changes', (p) => first.push(p))
    const offSecond = await db.listen('changes', (p) => second.push(p))
    await db.transaction(async (tx) => {
      await tx.query(`select pg_notify('changes', 'one')`)
      // Not yet: the transaction has not committed.
      expect(first).toEqual([])
    })
    await expect.poll(() => [first, second], { timeout: 5000 }).toEqual([['one'], ['one']])
    await offFirst()
    await db.query(`select pg_notify('changes', 'two')`)
    await expect.poll(() => second, { timeout: 5000 }).toEqual(['one', 'two'])
    expect(first).toEqual(['one'])
    await offSecond()
  })

  it("leaves the server's thread free while a slow statement runs", async () => {
    const slow = db.query('select pg_sleep(0.4)')
    const started = performance.now()
    const ticks: number[] = []
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        ticks.push(performance.now() - started)
        if (ticks.length === 5) {
          clearInterval(timer)
          resolve()
        }
      }, 20)
    })
    // In-process, the whole sleep blocked this thread: the first tick came after 400 ms.
    expect(ticks[0]).toBeLessThan(300)
    await slow
  })

  it('dumps a cluster that opens again with its rows', async () => {
    const dump = await db.dump!()
    const copy = await openPgliteThread(undefined, dump)
    try {
      expect((await copy.query<{ n: number }>('select n from counter where id = 1')).rows[0]!.n).toBe(20)
    } finally {
      await copy.close()
    }
  })

  it('refuses calls after close with a clear message', async () => {
    const other = await openPgliteThread(undefined, undefined)
    await other.close()
    await expect(other.query('select 1')).rejects.toThrow(/database thread stopped/)
  })
})

// A fresh PGlite cluster is made in the child (initdb in WebAssembly): seconds on a quiet machine,
// far more while the suite's own workers share the cores. Run without blocking this worker.
it('an open database does not keep a script running (as PGlite on the main thread did not)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-thread-'))
  const script = join(dir, 'open-and-leave.mts')
  const moduleFile = fileURLToPath(new URL('../../supabase/local/core/pglite-thread.ts', import.meta.url))
  writeFileSync(
    script,
    `import { openPgliteThread } from ${JSON.stringify(moduleFile)}
const db = await openPgliteThread(undefined, undefined)
console.log((await db.query<{ n: number }>('select 41 + 1 as n')).rows[0]!.n)
`,
  )
  try {
    // execFile rejects on a non-zero exit or a kill at the timeout: the script must end by itself.
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 100_000 })
    expect(run.stderr).toBe('')
    expect(run.stdout.trim()).toBe('42')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)
