import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { createBrowserRouter, Navigate } from 'react-router-dom'
import { PageFallback } from '../ui/PageFallback.tsx'
import { RouteError } from './RouteError.tsx'

// Every page is its own chunk so the landing page never pays for the studio, tone or ethers.
const AppLayout = lazy(() => import('./AppLayout.tsx'))

const pages = {
  Landing: lazy(() => import('../features/landing/LandingPage.tsx')),
  Pitchdeck: lazy(() => import('../features/pitchdeck/PitchdeckPage.tsx')),
  Profile: lazy(() => import('../features/account/profile/ProfilePage.tsx')),
  Library: lazy(() => import('../features/library/LibraryPage.tsx')),
  Playlists: lazy(() => import('../features/playlists/PlaylistsPage.tsx')),
  Remix: lazy(() => import('../features/remix/RemixPage.tsx')),
  Studio: lazy(() => import('../features/studio/StudioPage.tsx')),
  Comments: lazy(() => import('../features/comments/CommentsPage.tsx')),
  Admin: lazy(() => import('../features/admin/AdminPage.tsx')),
  Settings: lazy(() => import('../features/settings/SettingsPage.tsx')),
  Governance: lazy(() => import('../features/governance/GovernancePage.tsx')),
  Whitepaper: lazy(() => import('../features/whitepaper/WhitepaperPage.tsx')),
  Mint: lazy(() => import('../features/mint/MintPage.tsx')),
  Wallet: lazy(() => import('../features/wallet/WalletPage.tsx')),
  Stream: lazy(() => import('../features/stream/StreamPage.tsx')),
  Listen: lazy(() => import('../features/listen/ListenPage.tsx')),
  Sharing: lazy(() => import('../features/share/SharingPage.tsx')),
  NowPlaying: lazy(() => import('../features/player/NowPlayingPage.tsx')),
  Track: lazy(() => import('../features/generator/TrackPage.tsx')),
  NotFound: lazy(() => import('./NotFoundPage.tsx')),
}

const el = (Page: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<PageFallback />}>
    <Page />
  </Suspense>
)

function WhitepaperIndexRedirect() {
  return <Navigate to="/app/whitepaper/executive_summary" replace />
}

export const routes = [
  { path: '/', element: el(pages.Landing), errorElement: <RouteError /> },
  { path: '/pitchdeck', element: el(pages.Pitchdeck), errorElement: <RouteError /> },
  {
    path: '/app',
    // The layout (sidebar, drag-and-drop, player chrome) is a chunk of its own: the landing page never loads it.
    element: el(AppLayout),
    errorElement: <RouteError />,
    children: [
      { index: true, element: el(pages.Profile) },
      { path: 'home', element: el(pages.Profile) },
      { path: 'library', element: el(pages.Library) },
      { path: 'playlists', element: el(pages.Playlists) },
      { path: 'remix', element: el(pages.Remix) },
      // /app/create is the Music Studio opened on its AI Generator tab (the page reads the path).
      { path: 'create', element: el(pages.Studio) },
      { path: 'studio', element: el(pages.Studio) },
      { path: 'comments', element: el(pages.Comments) },
      { path: 'admin', element: el(pages.Admin) },
      { path: 'settings', element: el(pages.Settings) },
      { path: 'governance', element: el(pages.Governance) },
      { path: 'whitepaper', element: <WhitepaperIndexRedirect /> },
      { path: 'whitepaper/:section', element: el(pages.Whitepaper) },
      { path: 'mint', element: el(pages.Mint) },
      { path: 'wallet', element: el(pages.Wallet) },
      { path: 'stream', element: el(pages.Stream) },
      { path: 'listen', element: el(pages.Listen) },
      { path: 'sharing/*', element: el(pages.Sharing) },
    ],
  },
  { path: '/now-playing', element: el(pages.NowPlaying), errorElement: <RouteError /> },
  { path: '/track/:id', element: el(pages.Track), errorElement: <RouteError /> },
  { path: '*', element: el(pages.NotFound) },
]

export const createAppRouter = () => createBrowserRouter(routes)
