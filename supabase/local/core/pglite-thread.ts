import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { Database } from './db.ts'

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> }
type Notice = { notify: string; payload: string }
type Started = { ready: true } | { ready: false; error: Record<string, unknown> }

/** The error the database raised, with its SQLSTATE, detail and hint, as the server maps them. */
function rebuilt(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields)
}

interface PgliteAssets {
  pgliteWasmModule: WebAssembly.Module
  initdbWasmModule: WebAssembly.Module
  fsBundle: Blob
}

let assets: Promise<PgliteAssets> | undefined

/**
 * PGlite's WebAssembly, compiled once per process, and its file bundle, read once: every database
 * thread gets them instead of compiling 9 MB of WebAssembly again (the test servers start often).
 */
function pgliteAssets(): Promise<PgliteAssets> {
  assets ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
    const [pglite, initdb, data] = await Promise.all(['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((f) => readFile(join(dist, f))))
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([WebAssembly.compile(pglite!), WebAssembly.compile(initdb!)])
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([data!]) }
  })()
  return assets
}

/**
 * Embedded PGlite on a worker thread (pglite-thread.worker.mjs), behind the same interface as
 * PostgreSQL. PGlite has one connection, so everything that uses it takes turns here: a
 * transaction holds it from BEGIN to COMMIT, and a statement outside one waits for it to end,
 * as PGlite's own transaction() did when it ran on the server's thread.
 */
export async function openPgliteThread(dataDir: string | undefined, snapshot: Blob | undefined): Promise<Database> {
  const shared = await pgliteAssets()
  const worker = new Worker(new URL('./pglite-thread.worker.mjs', import.meta.url), { workerData: { dataDir, snapshot, ...shared } })
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  const listeners = new Map<string, Set<(payload: string) => void>>()
  let nextId = 0
  let exited: Error | undefined

  let failedToStart: (error: Error) => void = () => {}
  const started = new Promise<void>((resolve, reject) => {
    failedToStart = reject
    worker.once('message', (m: Started) => (m.ready ? resolve() : reject(rebuilt(m.error))))
  })
  // An error thrown on the thread ends it ('exit' below fails what was waiting); the server keeps running.
  worker.on('error', (error) => {
    failedToStart(error)
    console.error('database thread:', error)
  })
  worker.on('message', (m: Reply | Notice | Started) => {
    if ('notify' in m) for (const onPayload of listeners.get(m.notify) ?? []) onPayload(m.payload)
    else if ('id' in m) {
      const call = pending.get(m.id)
      pending.delete(m.id)
      if (pending.size === 0) worker.unref()
      if (m.ok) call?.resolve(m.value)
      else call?.reject(rebuilt(m.error))
    }
  })
  worker.on('exit', (code) => {
    exited = new Error(`the database thread stopped (exit code ${code})`)
    for (const call of pending.values()) call.reject(exited)
    pending.clear()
  })
  try {
    await started
    worker.unref()
  } catch (error) {
    await worker.terminate()
    throw error
  }

  const send = (op: string, fields: { sql?: string; params?: unknown[]; channel?: string } = {}) =>
    new Promise<unknown>((resolve, reject) => {
      if (exited) return reject(exited)
      const id = ++nextId
      // Like PGlite on the main thread, an idle database keeps no process alive; a call in flight does.
      if (pending.size === 0) worker.ref()
      pending.set(id, { resolve, reject })
      worker.postMessage({ id, op, ...fields })
    })
  const query = async <T>(sql: string, params?: unknown[]) => ({ rows: (await send('query', { sql, params })) as T[] })

  let turn: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const result = turn.then(fn)
    turn = result.catch(() => undefined)
    return result
  }

  return {
    kind: 'pglite',
    query: (sql, params) => inTurn(() => query(sql, params)),
    transaction: (fn, opening) => {
      let committed!: Promise<unknown>
      // The thread runs what it is sent in order, so BEGIN is sent without waiting for it (a failed
      // BEGIN fails the first statement too), and the next caller's turn starts once COMMIT is sent:
      // the database never waits for this thread to hear that a COMMIT went through.
      const body = inTurn(async () => {
        const begun = send('exec', { sql: opening ? `begin; ${opening}` : 'begin' })
        const refused = begun.then(
          () => undefined,
          (error: unknown) => error,
        )
        let result: unknown
        try {
          result = await fn({ query })
          await begun
        } catch (error) {
          await send('exec', { sql: 'rollback' }).catch(() => undefined)
          // When the opening (the pre-request check) refused, that is the answer, not the aborted statement after it.
          throw (await refused) ?? error
        }
        committed = send('exec', { sql: 'commit' })
        committed.catch(() => undefined)
        return result
      })
      return body.then(async (result) => {
        await committed
        return result as never
      })
    },
    exec: (sql) => inTurn(async () => void (await send('exec', { sql }))),
    listen: (channel, onPayload) =>
      inTurn(async () => {
        const callbacks = listeners.get(channel) ?? new Set()
        if (callbacks.size === 0) await send('listen', { channel })
        callbacks.add(onPayload)
        listeners.set(channel, callbacks)
        return () =>
          inTurn(async () => {
            if (!callbacks.delete(onPayload) || callbacks.size > 0) return
            listeners.delete(channel)
            await send('unlisten', { channel })
          })
      }),
    dump: () => inTurn(async () => (await send('dump')) as Blob),
    close: () =>
      inTurn(async () => {
        if (exited) return
        await send('close')
        await worker.terminate()
      }),
  }
}
