import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// A friend's device or an attacker's visitor is another client address. The e2e server listens on
// 127.0.0.1 and every page of the suite's browser connects from there; a context given this
// forward proxy reaches the same server from `localAddress` instead (all of 127/8 is local on Linux).

export interface OtherAddress {
  /** Playwright's context proxy option: loopback is proxied too (Chromium bypasses it by default). */
  proxy: { server: string; bypass: string }
  close(): Promise<void>
}

export async function proxyFrom(localAddress: string): Promise<OtherAddress> {
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? '/')
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
        localAddress,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    proxy: { server: `http://127.0.0.1:${port}`, bypass: '<-loopback>' },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A page of another site (its own origin: another port) serving `html`. */
export async function otherSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
