/**
 * Builds scripts/render-harness.html with Vite (production build, as the app ships), serves it on
 * 127.0.0.1 with the app's isolation headers and opens it in headless Chromium, so scripts render
 * audio with exactly the composer and renderer the app uses.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, extname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from '@playwright/test'

const SCRIPTS_DIR = dirname(fileURLToPath(import.meta.url))
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

export interface Harness {
  page: Page
  close(): Promise<void>
}

export async function openHarness(): Promise<Harness> {
  const { build } = await import('vite')
  const { chromium } = await import('@playwright/test')
  const { launchOptions } = await import('../tests/e2e/support/browser.ts')
  const outDir = mkdtempSync(join(tmpdir(), 'cube-render-'))
  await build({
    configFile: false,
    root: SCRIPTS_DIR,
    base: './',
    logLevel: 'warn',
    worker: { format: 'es' },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      rollupOptions: { input: join(SCRIPTS_DIR, 'render-harness.html') },
    },
  })
  const server: Server = createServer((req, res) => {
    const path = resolve(outDir, '.' + decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
    const file = path.startsWith(outDir) && statSync(path, { throwIfNoEntry: false })?.isFile() ? path : join(outDir, 'render-harness.html')
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    })
    res.end(readFileSync(file))
  })
  const port = await new Promise<number>((ok) => server.listen(0, '127.0.0.1', () => ok((server.address() as { port: number }).port)))
  const browser: Browser = await chromium.launch(launchOptions())
  const page = await browser.newPage()
  page.on('pageerror', (e) => console.error('[browser]', e.message))
  page.on('console', (m) => m.type() === 'error' && console.error('[browser]', m.text()))
  await page.goto(`http://127.0.0.1:${port}/render-harness.html`)
  await page.waitForFunction(() => 'renderRequest' in window)
  return {
    page,
    close: async () => {
      await browser.close()
      server.close()
      rmSync(outDir, { recursive: true, force: true })
    },
  }
}
