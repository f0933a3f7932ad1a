import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { createBrowserRouter, Navigate } from 'react-router-dom'
import { PageFallback } from '../components/PageFallback.tsx'
import { RouteError } from '../components/RouteError.tsx'

// Every page is its own chunk so the landing page never pays for the studio, tone or ethers.
const AppLayout = lazy(() => import('./AppLayout.tsx'))

const pages = {
  Landing: lazy(() => import('../pages/landing/LandingPage.tsx')),
  Pitchdeck: lazy(() => import('../pages/pitchdeck/PitchdeckPage.tsx')),
  Profile: lazy(() => import('../pages/profile/ProfilePage.tsx')),
  Library: lazy(() => import('../pages/library/LibraryPage.tsx')),
  Playlists: lazy(() => import('../pages/playlists/PlaylistsPage.tsx')),
  Remix: lazy(() => import('../pages/remix/RemixPage.tsx')),
  Studio: lazy(() => import('../pages/studio/StudioPage.tsx')),
  Comments: lazy(() => import('../pages/comments/CommentsPage.tsx')),
  Admin: lazy(() => import('../pages/admin/AdminPage.tsx')),
  Settings: lazy(() => import('../pages/settings/SettingsPage.tsx')),
  Governance: lazy(() => import('../pages/governance/GovernancePage.tsx')),
  Whitepaper: lazy(() => import('../pages/whitepaper/WhitepaperPage.tsx')),
  Mint: lazy(() => import('../pages/mint/MintPage.tsx')),
  Wallet: lazy(() => import('../pages/wallet/WalletPage.tsx')),
  Stream: lazy(() => import('../pages/stream/StreamPage.tsx')),
  Listen: lazy(() => import('../pages/listen/ListenPage.tsx')),
  Sharing: lazy(() => import('../pages/sharing/SharingPage.tsx')),
  NowPlaying: lazy(() => import('../pages/now-playing/NowPlayingPage.tsx')),
  Track: lazy(() => import('../pages/track/TrackPage.tsx')),
  NotFound: lazy(() => import('../pages/not-found/NotFoundPage.tsx')),
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
