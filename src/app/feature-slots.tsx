import { lazy, Suspense, type ComponentType } from 'react'
import type { SlotComponents } from '../ui/slots.tsx'
import { AiGenerator, LandingGenerator } from '../features/generator/index.ts'

// The widgets features lend each other (see src/ui/slots.tsx). Each loads with the first screen
// that shows it, so a page's chunk holds only its own feature, as when pages imported them.
function lazyWidget<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Widget = lazy(async () => ({ default: await load() }))
  return function LazyWidget(props: P) {
    return (
      <Suspense fallback={null}>
        <Widget {...props} />
      </Suspense>
    )
  }
}

export const FEATURE_SLOTS: SlotComponents = {
  AddToPlaylistMenu: lazyWidget(() => import('../features/playlists/index.ts').then((m) => m.AddToPlaylistMenu)),
  PublishButton: lazyWidget(() => import('../features/publish/index.ts').then((m) => m.PublishButton)),
  PublishedSection: lazyWidget(() => import('../features/publish/index.ts').then((m) => m.PublishedSection)),
  CommentThread: lazyWidget(() => import('../features/comments/index.ts').then((m) => m.CommentThread)),
  WaveformMarkers: lazyWidget(() => import('../features/comments/index.ts').then((m) => m.CommentMarkers)),
  LedgerTokenActivity: lazyWidget(() => import('../features/wallet/index.ts').then((m) => m.LedgerTokenActivity)),
  WalletBasicsCard: lazyWidget(() => import('../features/wallet/index.ts').then((m) => m.WalletBasicsCard)),
  ListenCreditNote: lazyWidget(() => import('../features/listen/index.ts').then((m) => m.ListenCreditNote)),
  StudioProjectsSection: lazyWidget(() => import('../features/studio/index.ts').then((m) => m.StudioProjectsSection)),
  StationMiniControls: lazyWidget(() => import('../features/stream/index.ts').then((m) => m.StationMiniControls)),
  LandingGenerator,
  AiGenerator,
  AuthModalHost: lazyWidget(() => import('../features/account/index.ts').then((m) => m.AuthModalHost)),
  PlayerBar: lazyWidget(() => import('../features/player/index.ts').then((m) => m.PlayerBar)),
  SongWaveform: lazyWidget(() => import('../features/player/index.ts').then((m) => m.Waveform)),
  CreatorEarningsCard: lazyWidget(() => import('../features/wallet/index.ts').then((m) => m.CreatorEarningsCard)),
  StillListeningPrompt: lazyWidget(() => import('../features/listen/index.ts').then((m) => m.StillListeningPrompt)),
  // Loaded only when a widget on the landing page first needs the server (the generator's share panel).
  ServerState: lazyWidget(() => import('./ServerState.tsx').then((m) => m.ServerState)),
}
