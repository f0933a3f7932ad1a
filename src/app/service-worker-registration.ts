/**
 * Registers the service worker of a production build (service-worker/sw.ts, built to /sw.js by
 * scripts/service-worker-plugin.ts): it makes the app installable and lets it open offline. Not in
 * dev, where Vite serves unbundled modules a precache cannot list. Called when the app itself
 * starts (src/app/start-services.ts), not on the landing page, the pitch deck or the whitepaper:
 * a visitor who only reads those never downloads the 3 MB precache.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  // After the page has loaded: downloading the precache never competes with the first paint.
  const register = () =>
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      // The app works the same without it (online); only offline use and install are lost.
      console.info('[offline] no service worker:', error instanceof Error ? error.message : error)
    })
  if (document.readyState === 'complete') void register()
  else window.addEventListener('load', () => void register(), { once: true })
}
