/**
 * Builds the app's service worker (service-worker/sw.ts) after the app itself, with the list of
 * files it precaches written in (`self.__WB_MANIFEST`, the name workbox-precaching reads): every
 * script, stylesheet, worklet and worker of the build, the icons, the manifest and the catalogue's
 * covers. Not precached: the pages (the service worker fetches them fresh and keeps the last one),
 * the catalogue's audio (40 MB; a listener saves the songs they want offline), the GM bank (14.6 MB,
 * loaded only where instruments play) and the fonts (the Chinese font alone is 12 MB; cached as
 * they are used). Hashed file names carry their own revision; other files get a hash of their bytes.
 *
 * Workbox's own build tool (workbox-build, through vite-plugin-pwa) does this too, but brings about
 * 320 packages (Babel, Rollup and their plugins) into every install; listing a build's files is
 * the part of it this app needs.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { build, type Plugin, type ResolvedConfig } from 'vite'

const PRECACHED = /^(assets\/.+\.(js|css|wasm)|icons\/.+\.png|images\/.+\.(svg|png|webp)|favicon\.svg|manifest\.webmanifest)$/
// Vite's content hash in a file name: `name-<8 url-safe characters>.ext`.
const HASHED = /^assets\/.+-[A-Za-z0-9_-]{8}\.\w+$/
export const SERVICE_WORKER_FILE = 'sw.js'

export interface PrecacheEntry {
  url: string
  revision: string | null
}

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path, root) : [relative(root, path).split('\\').join('/')]
  })
}

/** What the service worker precaches from a built app in `outDir`. */
export function precacheEntries(outDir: string): PrecacheEntry[] {
  return walk(outDir)
    .filter((file) => PRECACHED.test(file))
    .sort()
    .map((file) => ({
      url: `/${file}`,
      revision: HASHED.test(file)
        ? null
        : createHash('sha256')
            .update(readFileSync(join(outDir, file)))
            .digest('hex')
            .slice(0, 16),
    }))
}

export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig
  return {
    name: 'cube:service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved
    },
    async closeBundle() {
      // Only the app's own build: the Vitest browser server and the bench page build without it.
      if (config.build.ssr || config.build.lib) return
      const outDir = resolve(config.root, config.build.outDir)
      const entries = precacheEntries(outDir)
      await build({
        configFile: false,
        logLevel: 'warn',
        root: config.root,
        define: { 'self.__WB_MANIFEST': JSON.stringify(entries), 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          target: 'es2022',
          minify: true,
          // A classic script: every browser that has service workers runs one.
          lib: {
            entry: resolve(config.root, 'service-worker/sw.ts'),
            formats: ['iife'],
            name: 'cubeServiceWorker',
            fileName: () => SERVICE_WORKER_FILE,
          },
        },
      })
    },
  }
}
