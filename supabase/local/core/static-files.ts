import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, resolve, sep } from 'node:path'

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.webm': 'audio/webm',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/**
 * Serves the built app: files with byte ranges (audio streams and seeks before it has fully
 * downloaded), hashed assets cached for a year, and the SPA's index.html for every other path.
 */
export function staticFiles(rootDir: string, headers: Readonly<Record<string, string>>): Handler {
  const root = resolve(rootDir)
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://local')
    let pathname: string
    try {
      pathname = decodeURIComponent(url.pathname)
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain', ...headers }).end('Bad path')
      return
    }
    const candidate = normalize(join(root, pathname))
    const inside = candidate === root || candidate.startsWith(root + sep)
    let file = inside ? candidate : join(root, 'index.html')
    let info = await stat(file).catch(() => undefined)
    if (!info || info.isDirectory()) {
      file = join(root, 'index.html')
      info = await stat(file).catch(() => undefined)
      if (!info) {
        res.writeHead(503, { 'Content-Type': 'text/plain', ...headers }).end('App not built: run `npm run build` first.')
        return
      }
    }
    const type = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream'
    const cache = pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
    const base = { 'Content-Type': type, 'Cache-Control': cache, 'Accept-Ranges': 'bytes', ...headers }
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')
    if (range && (range[1] || range[2])) {
      const size = info.size
      let start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]))
      let end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1
      if (start > end || start >= size) {
        res.writeHead(416, { 'Content-Range': `bytes */${size}`, ...headers }).end()
        return
      }
      start = Math.max(0, start)
      end = Math.max(start, end)
      res.writeHead(206, { ...base, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': end - start + 1 })
      if (req.method === 'HEAD') return void res.end()
      createReadStream(file, { start, end }).pipe(res)
      return
    }
    res.writeHead(200, { ...base, 'Content-Length': info.size })
    if (req.method === 'HEAD') return void res.end()
    createReadStream(file).pipe(res)
  }
}
