import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { ISOLATION_HEADERS } from '../../src/app/isolation-headers.ts'
import { staticFiles } from './static-files.ts'

const here = dirname(fileURLToPath(import.meta.url))
const port = Number(process.env.PORT ?? 8080)
const host = process.env.HOST ?? '127.0.0.1'
const distDir = process.env.DIST_DIR ?? join(here, '..', '..', 'dist')

const serveApp = staticFiles(distDir, ISOLATION_HEADERS)

const server = createServer((req, res) => {
  serveApp(req, res).catch((error: unknown) => {
    console.error(error)
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' })
    res.end('Internal error')
  })
})

server.listen(port, host, () => {
  console.log(`CUBE Music on http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`)
})

const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
