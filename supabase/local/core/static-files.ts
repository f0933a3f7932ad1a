import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Stats } from 'node:fs'
import { extname, join, resolve } from 'node:path'
import sirv from 'sirv'
import { withAnonKey } from './local-keys.ts'

type Handler = (req: IncomingMessage, res: ServerResponse, keys?: { anonKey: string }) => Promise<void>

/**
 * Types sirv's table (mrmime) gives differently from what the app needs: text with its charset,
 * and .webm as audio (recordings). Every other type is sirv's; worklets and workers are built as
 * .js, so they go out as JavaScript.
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.webm': 'audio/webm',
}

/**
 * Serves the built app with sirv: only files that exist in `rootDir` (sirv lists them up front,
 * so no request path can reach outside it), byte ranges (audio streams and seeks before it has
 * fully downloaded), hashed assets under /assets/ cached for a year and everything else
 * revalidated, and the SPA's index.html for every other path. `headers` (cross-origin isolation)
 * go out on every answer. A new build (index.html changed) is picked up without a restart. Given
 * the server's `keys`, the page carries its anon key (the data folder's own, see local-keys.ts).
 */
export function staticFiles(rootDir: string, headers: Readonly<Record<string, string>>): Handler {
  const root = resolve(rootDir)
  const index = join(root, 'index.html')
  let current: { built: number; serve: ReturnType<typeof sirv>; page: Promise<string> } | undefined

  const setHeaders = (res: ServerResponse, pathname: string, stats: Stats) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v)
    const type = TYPES[extname(pathname).toLowerCase()]
    if (type) res.setHeader('Content-Type', type)
    res.setHeader('Cache-Control', pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
    res.setHeader('Accept-Ranges', 'bytes')
    normaliseRange(res.req, stats.size)
  }

  const sendPage = async (req: IncomingMessage, res: ServerResponse, page: Promise<string>, anonKey: string) => {
    const html = withAnonKey(await page, anonKey)
    res.writeHead(200, {
      ...headers,
      'Content-Type': TYPES['.html']!,
      'Cache-Control': 'no-cache',
      'Content-Length': Buffer.byteLength(html),
    })
    res.end(req.method === 'HEAD' ? undefined : html)
  }

  return async (req, res, keys) => {
    const url = new URL(req.url ?? '/', 'http://local')
    try {
      decodeURIComponent(url.pathname)
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain', ...headers }).end('Bad path')
      return
    }
    const built = (await stat(index).catch(() => undefined))?.mtimeMs
    if (built === undefined) {
      res.writeHead(503, { 'Content-Type': 'text/plain', ...headers }).end('App not built: run `npm run build` first.')
      return
    }
    if (current?.built !== built)
      current = { built, serve: sirv(root, { etag: false, extensions: [], dotfiles: false, setHeaders }), page: readFile(index, 'utf8') }
    const { serve, page } = current
    if (keys && (url.pathname === '/' || url.pathname === '/index.html')) return sendPage(req, res, page, keys.anonKey)
    serve(req, res, () => {
      // The SPA: any other path is the app's index.html (a route the client-side router knows).
      if (keys) return void sendPage(req, res, page, keys.anonKey).catch(() => res.destroy())
      req.url = '/index.html'
      serve(req, res, () => {
        res.writeHead(503, { 'Content-Type': 'text/plain', ...headers }).end('App not built: run `npm run build` first.')
      })
    })
  }
}

/**
 * Rewrites the Range header into the one form sirv reads correctly (`bytes=start-end`):
 * a suffix range (`bytes=-500`, the last 500 bytes) becomes explicit, an unsatisfiable one
 * becomes `bytes=<size>-` (sirv answers 416), and anything else unreadable is dropped, so the
 * whole file goes out with 200, as HTTP allows.
 */
function normaliseRange(req: IncomingMessage, size: number) {
  const header = req.headers.range
  if (header === undefined) return
  const range = /^bytes=(\d*)-(\d*)$/.exec(header)
  if (!range || (!range[1] && !range[2])) {
    delete req.headers.range
    return
  }
  const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]))
  const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1
  req.headers.range = start > end || start >= size ? `bytes=${size}-` : `bytes=${start}-${end}`
}
