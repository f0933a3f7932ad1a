/**
 * Serves the GM bank (src/config/soundfont.ts) from node_modules at GM_BANK_URL in dev and in the
 * Vitest browser server, and writes it into the build, so the 14.6 MB file is not committed twice
 * and the app never fetches it from a third party.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Plugin } from 'vite'
import { GM_BANK_SOURCE, GM_BANK_URL } from '../src/config/soundfont.ts'

const bankPath = (): string => createRequire(import.meta.url).resolve(GM_BANK_SOURCE)

export function soundfontBankPlugin(): Plugin {
  return {
    name: 'cube:soundfont-bank',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== GM_BANK_URL) return next()
        const file = bankPath()
        res.setHeader('Content-Type', 'application/octet-stream')
        res.setHeader('Content-Length', String(statSync(file).size))
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
        createReadStream(file).pipe(res)
      })
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: GM_BANK_URL.slice(1), source: readFileSync(bankPath()) })
    },
  }
}
