import type { IncomingMessage, ServerResponse } from 'node:http'
import type { EdgeHandler } from '../../functions/_shared/http.ts'
import { requestHeaders } from '../core/caller.ts'
import { readBody } from '../core/http-body.ts'

/**
 * Runs a Fetch-API edge function for a Node request: the request (method, headers, body up to
 * 1 MiB) becomes a `Request`, and the `Response` is written back as it is. As behind hosted
 * Supabase's gateway, X-Forwarded-For carries the client's address (here the socket's peer; a
 * client-sent one, CF-Connecting-IP or X-Real-IP is dropped, never believed).
 */
export async function runEdgeHandler(handler: EdgeHandler, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? 'GET'
  const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await readBody(req))
  const headers = new Headers()
  for (const [name, value] of Object.entries(requestHeaders(req))) headers.set(name, value)
  const response = await handler(new Request(url, { method, headers, body }))
  const out: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    out[name] = value
  })
  res.writeHead(response.status, out)
  res.end(Buffer.from(await response.arrayBuffer()))
}
