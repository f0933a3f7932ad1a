/**
 * The one route table. The router (src/app/router.tsx) builds its routes from it and the sidebar's
 * navigation (navigation.ts) is derived from the `nav` entries, so a path is written once. A page
 * is named by id here; the router maps every id to its lazily loaded page module (a Record over
 * PageId, so a page missing there does not compile).
 */
export type PageId =
  | 'landing'
  | 'pitchdeck'
  | 'now-playing'
  | 'track'
  | 'not-found'
  | 'profile'
  | 'whitepaper'
  | 'studio'
  | 'remix'
  | 'library'
  | 'playlists'
  | 'listen'
  | 'comments'
  | 'sharing'
  | 'governance'
  | 'wallet'
  | 'settings'
  | 'admin'
  | 'mint'
  | 'stream'
  | 'song'
  | 'user'
  | 'artist'
  | 'reset-password'

export type NavGroupKey = 'main' | 'studio' | 'earn' | 'assets'

/** Icon names the navigation uses (the sidebar's <Icon> only compiles with names it knows). */
export type NavIcon =
  | 'home'
  | 'user'
  | 'book'
  | 'music'
  | 'sliders'
  | 'sparkles'
  | 'shuffle'
  | 'library'
  | 'cube'
  | 'list'
  | 'headphones'
  | 'message'
  | 'share'
  | 'wallet'
  | 'vote'
  | 'settings'
  | 'shield'

export interface NavEntry {
  group: NavGroupKey
  label: string
  icon: NavIcon
  /** Shown only to signed-in administrators (role decided by the server). */
  adminOnly?: boolean
}

/** A route inside the /app layout (sidebar, player bar); `path` is relative to /app. */
export interface AppRoute {
  path: string
  page?: PageId
  /** A route that only forwards to another path (e.g. a section index). */
  redirect?: string
  nav?: NavEntry
}

/** Routes outside the /app layout. */
export interface TopRoute {
  path: string
  page: PageId
  /** The page needs the signed-in services (session, listen reports, sync) that /app starts. */
  services?: boolean
}

export const APP_BASE = '/app'

export const TOP_ROUTES: readonly TopRoute[] = [
  { path: '/', page: 'landing' },
  { path: '/pitchdeck', page: 'pitchdeck' },
  { path: '/now-playing', page: 'now-playing', services: true },
  { path: '/track/:id', page: 'track' },
  { path: '/song/:slug', page: 'song', services: true },
  { path: '/user/:username', page: 'user', services: true },
  { path: '/artist/:slug', page: 'artist', services: true },
]

export const NOT_FOUND_PAGE: PageId = 'not-found'

/** The /app index shows this page. */
export const APP_INDEX_PAGE: PageId = 'profile'

// Order matters: within a group, the sidebar lists items in this order.
export const APP_ROUTES: readonly AppRoute[] = [
  { path: 'home', page: 'profile', nav: { group: 'main', label: 'Profile', icon: 'user' } },
  { path: 'whitepaper', redirect: '/app/whitepaper/executive_summary', nav: { group: 'main', label: 'Whitepaper', icon: 'book' } },
  { path: 'whitepaper/:section', page: 'whitepaper' },
  { path: 'studio', page: 'studio', nav: { group: 'studio', label: 'Live Mixer', icon: 'sliders' } },
  // /app/create is the Music Studio opened on its AI Generator tab (the page reads the path).
  { path: 'create', page: 'studio', nav: { group: 'studio', label: 'AI Generator', icon: 'sparkles' } },
  { path: 'remix', page: 'remix', nav: { group: 'studio', label: 'Remix Tracks', icon: 'shuffle' } },
  { path: 'library', page: 'library', nav: { group: 'studio', label: 'Library', icon: 'library' } },
  { path: 'playlists', page: 'playlists', nav: { group: 'earn', label: 'Playlists', icon: 'list' } },
  { path: 'listen', page: 'listen', nav: { group: 'earn', label: 'Listen', icon: 'headphones' } },
  { path: 'comments', page: 'comments', nav: { group: 'earn', label: 'Comments', icon: 'message' } },
  { path: 'sharing/*', page: 'sharing', nav: { group: 'earn', label: 'Sharing', icon: 'share' } },
  { path: 'governance', page: 'governance', nav: { group: 'assets', label: 'Governance', icon: 'vote' } },
  { path: 'wallet', page: 'wallet', nav: { group: 'assets', label: 'Wallet', icon: 'wallet' } },
  { path: 'mint', page: 'mint', nav: { group: 'assets', label: 'Mint NFT', icon: 'cube' } },
  { path: 'settings', page: 'settings', nav: { group: 'assets', label: 'Settings', icon: 'settings' } },
  { path: 'admin', page: 'admin', nav: { group: 'assets', label: 'Admin', icon: 'shield', adminOnly: true } },
  { path: 'stream', page: 'stream' },
  // A password-reset mail's link opens this (no sidebar entry).
  { path: 'reset-password', page: 'reset-password' },
]

/** The absolute link of an /app route ('sharing/*' → '/app/sharing'). */
export const appLink = (route: AppRoute): string => `${APP_BASE}/${route.path.replace(/\/\*$/, '')}`
