/**
 * Songs kept on the device for offline listening: their audio and covers in the Cache Storage cache
 * the service worker answers them from (service-worker/sw.ts), under their own URLs, so the player
 * and the waveform fetch them exactly as online.
 */
import { OFFLINE_MEDIA_CACHE } from '../config/offline.ts'

/** A song's file could not be saved; the message says why in words. */
export class OfflineSaveError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OfflineSaveError'
  }
}

/** Whether this browser can keep files for offline use (Cache Storage and service workers). */
export function canKeepOffline(): boolean {
  return typeof caches !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator
}

/**
 * The URL a file is kept under, or null for media already on the device (the user's own tracks in
 * IndexedDB, object URLs, data: URLs), which need no copy.
 */
export function offlineUrl(url: string | undefined): string | null {
  if (!url || /^(idb|blob|data):/.test(url)) return null
  try {
    return new URL(url, location.href).href
  } catch {
    return null
  }
}

const open = () => caches.open(OFFLINE_MEDIA_CACHE)

/** Downloads `url` whole and keeps it. Rejects OfflineSaveError with the reason. */
export async function keepOffline(url: string): Promise<void> {
  let response: Response
  try {
    // The whole file, fresh from the server (a Range answer or an HTTP-cached copy would not do).
    response = await fetch(url, { cache: 'no-store' })
  } catch {
    throw new OfflineSaveError('the download failed (are you online?)')
  }
  if (!response.ok) throw new OfflineSaveError(`the server answered ${response.status}`)
  // A single-page app's server answers a missing file with its page: that is not the song.
  if (response.headers.get('Content-Type')?.startsWith('text/html')) throw new OfflineSaveError('the file is missing on the server')
  try {
    await (await open()).put(url, response)
  } catch (error) {
    throw new OfflineSaveError(
      error instanceof DOMException && error.name === 'QuotaExceededError'
        ? 'the device is out of storage space'
        : 'the browser refused to store it',
    )
  }
}

/** The URLs kept offline now. */
export async function keptUrls(): Promise<Set<string>> {
  if (!canKeepOffline()) return new Set()
  return new Set((await (await open()).keys()).map((request) => request.url))
}

/** Lets go of the copies of `urls`. */
export async function releaseOffline(urls: Iterable<string>): Promise<void> {
  if (!canKeepOffline()) return
  const cache = await open()
  await Promise.all([...urls].map((url) => cache.delete(url)))
}
