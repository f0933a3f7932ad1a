// PGlite on a thread of its own (pglite-thread.ts starts it). PGlite runs the database in
// WebAssembly on whatever thread calls it; on the server's thread it shared one core with HTTP,
// JWT and JSON. Here the database's work runs beside them.
//
// Plain JavaScript on purpose: a worker thread does not inherit the TypeScript loader under every
// runner (Vitest's workers have none), and this file imports nothing but PGlite.
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

/**
 * @type {{ dataDir?: string, snapshot?: Blob, pgliteWasmModule: WebAssembly.Module,
 *   initdbWasmModule: WebAssembly.Module, fsBundle: Blob }}
 */
const { dataDir, snapshot, ...compiled } = workerData
/** @type {Map<string, () => Promise<void>>} */
const unlisteners = new Map()

/** An error crosses threads as its own fields: structured clone would keep only the message. */
const plainError = (/** @type {unknown} */ error) => {
  if (!(error instanceof Error)) return { message: String(error) }
  return { ...error, name: error.name, message: error.message }
}

/** @param {{ op: string, sql?: string, params?: unknown[], channel?: string }} m */
async function run(m) {
  switch (m.op) {
    case 'query':
      return (await db.query(/** @type {string} */ (m.sql), m.params)).rows
    case 'exec':
      await db.exec(/** @type {string} */ (m.sql))
      return undefined
    case 'listen': {
      const channel = /** @type {string} */ (m.channel)
      const off = await db.listen(channel, (payload) => parentPort?.postMessage({ notify: channel, payload }))
      unlisteners.set(channel, off)
      return undefined
    }
    case 'unlisten': {
      const channel = /** @type {string} */ (m.channel)
      await unlisteners.get(channel)?.()
      unlisteners.delete(channel)
      return undefined
    }
    case 'dump':
      return await db.dumpDataDir('none')
    case 'close':
      await db.close()
      return undefined
    default:
      throw new Error(`unknown database operation ${m.op}`)
  }
}

let db
try {
  // The WebAssembly and the file bundle come compiled and read from the opening thread (pglite-thread.ts).
  db = await PGlite.create({ dataDir, loadDataDir: snapshot, ...compiled })
  parentPort?.postMessage({ ready: true })
} catch (error) {
  parentPort?.postMessage({ ready: false, error: plainError(error) })
}

parentPort?.on('message', (/** @type {{ id: number, op: string }} */ m) => {
  run(m).then(
    (value) => parentPort?.postMessage({ id: m.id, ok: true, value }),
    (error) => parentPort?.postMessage({ id: m.id, ok: false, error: plainError(error) }),
  )
})
