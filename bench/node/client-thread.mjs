// The backend benches' clients, on a thread of their own (client-thread.ts starts it): 50 clients
// are load, not the subject, and on the server's own thread they took CPU from the server being
// measured. A browser's requests never run on the server's thread either.
//
// Plain JavaScript: a worker thread does not inherit the TypeScript loader under every runner.
import { Agent, request } from 'node:http'
import { parentPort } from 'node:worker_threads'

// node:http with kept-alive connections costs about a third of what fetch does per call.
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })

/** @param {{ url: string, method?: string, headers?: Record<string, string>, body?: string }} call */
function timed(call) {
  const start = performance.now()
  return new Promise((resolve) => {
    const req = request(call.url, { method: call.method ?? 'GET', headers: call.headers, agent }, (res) => {
      /** @type {Buffer[]} */
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('error', (error) => resolve({ status: 0, text: String(error), ms: performance.now() - start }))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), ms: performance.now() - start }))
    })
    req.on('error', (error) => resolve({ status: 0, text: String(error), ms: performance.now() - start }))
    req.end(call.body)
  })
}

parentPort?.on('message', async (/** @type {{ id: number, calls: Parameters<typeof timed>[0][] }} */ m) => {
  parentPort?.postMessage({ id: m.id, answers: await Promise.all(m.calls.map(timed)) })
})
