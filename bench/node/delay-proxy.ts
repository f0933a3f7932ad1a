/**
 * A TCP proxy that delays every byte by a fixed time in each direction: a stand-in for the network
 * between a creator and a hosted backend (HTTP and WebSocket alike, since it works below both).
 * Order is kept: a chunk leaves `delayMs` after it arrived, never before the one ahead of it.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export interface DelayProxy {
  origin: string
  close(): Promise<void>
}

function delayed(from: Socket, to: Socket, delayMs: number) {
  let lastAt = 0
  from.on('data', (chunk: Buffer) => {
    const at = Math.max(Date.now() + delayMs, lastAt)
    lastAt = at
    setTimeout(() => to.destroyed || to.write(chunk), at - Date.now())
  })
  // The end travels as late as the data before it.
  from.on('end', () => setTimeout(() => to.end(), Math.max(0, lastAt - Date.now())))
}

/** Listens on a free port of 127.0.0.1 and forwards to `targetPort` there. */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1')
    for (const s of [client, upstream]) {
      s.setNoDelay(true)
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    delayed(client, upstream, delayMs)
    delayed(upstream, client, delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
