// What the service worker (service-worker/sw.ts) and the app (src/lib/offline-media.ts) agree on.

/** Songs a listener saved for offline listening: their audio and covers, by URL. Only the app writes it. */
export const OFFLINE_MEDIA_CACHE = 'cube-offline-media-v1'

/** The last app page the server sent (the SPA shell, with the API key it carries), for starts offline. */
export const APP_SHELL_CACHE = 'cube-app-shell-v1'

/** Fonts, cached as they are first used: the Chinese font alone is 12 MB, too much to precache. */
export const FONT_CACHE = 'cube-fonts-v1'

/** Path prefixes of the API (local server and hosted Supabase): never answered from a cache. */
export const API_PREFIXES = ['/rest/', '/auth/', '/functions/', '/realtime/', '/api/', '/chain/', '/storage/v1/object/sign/'] as const

/** Where media a listener can save lives: the shipped catalogue and published songs in Storage. */
export const MEDIA_PREFIXES = ['/audio/', '/images/', '/storage/v1/object/public/'] as const

export const isApiPath = (pathname: string): boolean => API_PREFIXES.some((p) => pathname.startsWith(p))
export const isMediaPath = (pathname: string): boolean => MEDIA_PREFIXES.some((p) => pathname.startsWith(p))
