/// <reference lib="webworker" />
// The app's service worker ("Offline and install"): the app shell and its static files
// precached, so the app opens and runs with the network off; songs a listener saved for offline
// played from their cache; the API never cached.
//
// What it answers, in order:
// 1. The build's own files (JS, CSS, worklets, workers, icons, covers): from the precache, kept in
//    step with each build (workbox-precaching; the list is made by scripts/service-worker-plugin.ts).
// 2. A page (a navigation): from the network, as without a service worker, so a page online is the
//    server's current one; the last page received stands in when the network is off.
// 3. Media a listener saved (audio, covers): from the offline cache, Range requests included (the
//    streaming player asks for ranges); anything not saved goes to the network untouched.
// 4. Fonts: from a cache filled as they are first used.
// Everything else, the whole API among it, is not handled here at all: the browser fetches it.
import { clientsClaim } from 'workbox-core'
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching'
import { createPartialResponse } from 'workbox-range-requests'
import { registerRoute } from 'workbox-routing'
import { CacheFirst } from 'workbox-strategies'
import { APP_SHELL_CACHE, FONT_CACHE, OFFLINE_MEDIA_CACHE, isApiPath, isMediaPath } from '../src/config/offline.ts'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] }

// The first install takes the open page at once, so a song saved right away plays offline without a
// reload. Later versions wait until every tab of the old one is closed: a page keeps the files it
// was built with.
clientsClaim()
cleanupOutdatedCaches()
precacheAndRoute(self.__WB_MANIFEST)

const SHELL_KEY = '/'

// The page that installed the service worker was not served through it: keep a copy of the shell
// now, so the app opens offline even if no page is loaded again before the network goes.
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(APP_SHELL_CACHE).then((shell) => shell.add(SHELL_KEY)))
})

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.origin === self.location.origin && !isApiPath(url.pathname),
  async ({ request }) => {
    const shell = await caches.open(APP_SHELL_CACHE)
    try {
      const response = await fetch(request)
      // Every route of the SPA is the same page; keep the newest one the server sent.
      if (response.ok && response.headers.get('Content-Type')?.startsWith('text/html')) await shell.put(SHELL_KEY, response.clone())
      return response
    } catch (error) {
      const cached = await shell.match(SHELL_KEY)
      if (cached) return cached
      throw error
    }
  },
)

registerRoute(
  ({ request, url }) => request.method === 'GET' && isMediaPath(url.pathname),
  async ({ request }) => {
    const saved = await (await caches.open(OFFLINE_MEDIA_CACHE)).match(request.url, { ignoreVary: true })
    if (!saved) return fetch(request)
    return request.headers.has('Range') ? createPartialResponse(request, saved) : saved
  },
)

registerRoute(
  ({ request, url }) => request.destination === 'font' && url.origin === self.location.origin,
  new CacheFirst({ cacheName: FONT_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 300 })] }),
)
