import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom'
import { APP_BASE, APP_INDEX_PAGE, APP_ROUTES, NOT_FOUND_PAGE, TOP_ROUTES, type PageId } from '../config/routes.ts'
import { PageFallback } from '../ui/PageFallback.tsx'
import { RouteError } from './RouteError.tsx'
import { SharedLinkOpener } from './SharedLinkOpener.tsx'

// Every page is its own chunk so the landing page never pays for the studio, tone or ethers. The
// router is the one module that reaches a feature's page module directly (by dynamic import);
// everything else goes through the feature's index.ts.
const AppLayout = lazy(() => import('./AppLayout.tsx'))

type PageModule = { default: ComponentType }

const PAGE_MODULES: Record<PageId, () => Promise<PageModule>> = {
  landing: () => import('../features/landing/LandingPage.tsx'),
  pitchdeck: () => import('../features/pitchdeck/PitchdeckPage.tsx'),
  'now-playing': () => import('../features/player/NowPlayingPage.tsx'),
  track: () => import('../features/generator/TrackPage.tsx'),
  'not-found': () => import('./NotFoundPage.tsx'),
  profile: () => import('../features/account/profile/ProfilePage.tsx'),
  whitepaper: () => import('../features/whitepaper/WhitepaperPage.tsx'),
  studio: () => import('../features/studio/StudioPage.tsx'),
  remix: () => import('../features/remix/RemixPage.tsx'),
  library: () => import('../features/library/LibraryPage.tsx'),
  playlists: () => import('../features/playlists/PlaylistsPage.tsx'),
  listen: () => import('../features/listen/ListenPage.tsx'),
  comments: () => import('../features/comments/CommentsPage.tsx'),
  sharing: () => import('../features/share/SharingPage.tsx'),
  governance: () => import('../features/governance/GovernancePage.tsx'),
  wallet: () => import('../features/wallet/WalletPage.tsx'),
  settings: () => import('../features/settings/SettingsPage.tsx'),
  admin: () => import('../features/admin/AdminPage.tsx'),
  mint: () => import('../features/mint/MintPage.tsx'),
  stream: () => import('../features/stream/StreamPage.tsx'),
  song: () => import('../features/public-pages/SongPage.tsx'),
  user: () => import('../features/public-pages/UserPage.tsx'),
  artist: () => import('../features/public-pages/ArtistPage.tsx'),
  'reset-password': () => import('../features/account/ResetPasswordPage.tsx'),
}

const PAGES = Object.fromEntries(Object.entries(PAGE_MODULES).map(([id, load]) => [id, lazy(load)])) as Record<
  PageId,
  LazyExoticComponent<ComponentType>
>

// Pages outside the /app layout that still need the signed-in services start them as they load
// (inside /app the layout starts them), so the landing page never loads supabase-js.
// They get the server-state layer (query cache, the real backend) from the same lazy chunk.
const withServices = (page: PageId) =>
  lazy(() =>
    Promise.all([PAGE_MODULES[page](), import('./start-services.ts'), import('./ServerState.tsx')]).then(
      ([module, services, { ServerState }]) => {
        services.startBackend()
        const Page = module.default
        return {
          default: () => (
            <ServerState>
              <Page />
            </ServerState>
          ),
        }
      },
    ),
  )

// A page outside /app that reads the server without the signed-in services (a shared track)
// still gets the server-state layer, from its own lazy chunk.
const withServerState = (page: PageId) =>
  lazy(() =>
    Promise.all([PAGE_MODULES[page](), import('./ServerState.tsx')]).then(([module, { ServerState }]) => {
      const Page = module.default
      return {
        default: () => (
          <ServerState>
            <Page />
          </ServerState>
        ),
      }
    }),
  )

/** The top-level pages that read the server without starting the services. */
const SERVER_PAGES: ReadonlySet<PageId> = new Set<PageId>(['track'])

const topPage = (page: PageId, services?: boolean) =>
  services ? withServices(page) : SERVER_PAGES.has(page) ? withServerState(page) : PAGES[page]

const el = (Page: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<PageFallback />}>
    <Page />
  </Suspense>
)

/** The pages a shared link names: their `?s=<token>` is reported to the server (SharedLinkOpener). */
const SHARED_PAGES: ReadonlySet<PageId> = new Set<PageId>(['song', 'user', 'track'])

export const routes: RouteObject[] = [
  ...TOP_ROUTES.map((r) => ({
    path: r.path,
    element: SHARED_PAGES.has(r.page) ? (
      <SharedLinkOpener>{el(topPage(r.page, r.services))}</SharedLinkOpener>
    ) : (
      el(topPage(r.page, r.services))
    ),
    errorElement: <RouteError />,
  })),
  {
    path: APP_BASE,
    // The layout (sidebar, drag-and-drop, player chrome) is a chunk of its own: the landing page never loads it.
    element: el(AppLayout),
    errorElement: <RouteError />,
    children: [
      { index: true, element: el(PAGES[APP_INDEX_PAGE]) },
      ...APP_ROUTES.map((r) => ({ path: r.path, element: r.redirect ? <Navigate to={r.redirect} replace /> : el(PAGES[r.page!]) })),
    ],
  },
  { path: '*', element: el(PAGES[NOT_FOUND_PAGE]) },
]

export const createAppRouter = () => createBrowserRouter(routes)
