import { Outlet } from 'react-router-dom'
import { Sidebar } from './sidebar/Sidebar.tsx'
import { Icon } from '../ui/Icon.tsx'
import { PlayerBar } from '../features/player/index.ts'
import { useIsNarrow } from '../ui/useIsNarrow.ts'
import { useSidebarStore } from './sidebar/sidebar-store.ts'
import { useBackendServices } from './start-services.ts'
import { ServerState } from './ServerState.tsx'
import { AuthModalHost } from '../features/account/index.ts'
import { StillListeningPrompt } from '../features/listen/index.ts'

export default function AppLayout() {
  const narrow = useIsNarrow()
  const setOpen = useSidebarStore((s) => s.setOpen)
  useBackendServices()
  return (
    <ServerState>
      <div className="flex min-h-screen bg-bg text-fg">
        <Sidebar narrow={narrow} />
        <div className="flex min-w-0 flex-1 flex-col">
          {narrow && (
            <header className="sticky top-0 z-30 flex items-center gap-3 border-b border-line bg-panel/95 px-3 py-2 backdrop-blur">
              <button type="button" onClick={() => setOpen(true)} aria-label="Open menu" className="rounded p-2 text-primary">
                <Icon name="menu" />
              </button>
              <span className="font-display font-black tracking-widest text-primary">CUBE</span>
            </header>
          )}
          <main id="main" className="cyber-grid min-w-0 flex-1 pb-8">
            <Outlet />
          </main>
          {/* The end of the column, sticky to the viewport's bottom: it has its own room, so it covers no content. */}
          <PlayerBar />
        </div>
        <AuthModalHost />
        <StillListeningPrompt />
      </div>
    </ServerState>
  )
}
