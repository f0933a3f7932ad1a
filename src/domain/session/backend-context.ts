import { createContext, useContext } from 'react'
import type * as accountSettings from '../../backend/account-settings.ts'
import type * as admin from '../../backend/admin.ts'
import type * as auth from '../../backend/auth.ts'
import type * as client from '../../backend/client.ts'
import type * as comments from '../../backend/comments.ts'
import type * as discovery from '../../backend/discovery.ts'
import type * as follows from '../../backend/follows.ts'
import type * as governance from '../../backend/governance.ts'
import type * as playlists from '../../backend/playlists.ts'
import type * as presence from '../../backend/presence.ts'
import type * as profileAvatar from '../../backend/profile-avatar.ts'
import type * as profileBanner from '../../backend/profile-banner.ts'
import type * as profile from '../../backend/profile.ts'
import type * as projectCollaboration from '../../backend/project-collaboration.ts'
import type * as publishing from '../../backend/publishing.ts'
import type * as remix from '../../backend/remix.ts'
import type * as serverClock from '../../backend/server-clock.ts'
import type * as rewards from '../../backend/rewards.ts'
import type * as sharing from '../../backend/sharing.ts'
import type * as station from '../../backend/station.ts'
import type * as studioProjects from '../../backend/studio-projects.ts'
import type * as trust from '../../backend/trust.ts'
import type * as wallet from '../../backend/wallet.ts'
import type * as web3 from '../../backend/web3.ts'

/**
 * Every typed server call the screens reach, one module per entry. Hooks read it from the React
 * context (`useBackend`) instead of importing `src/backend/` themselves, so the app passes the real
 * calls (`src/app/backend.ts`) and a component test passes fakes (tests/component/fake-backend.ts).
 */
export interface Backend {
  accountSettings: typeof accountSettings
  admin: typeof admin
  auth: typeof auth
  /** The supabase-js client, for the calls that take it as their first argument. */
  client: typeof client
  comments: typeof comments
  discovery: typeof discovery
  follows: typeof follows
  governance: typeof governance
  playlists: typeof playlists
  presence: typeof presence
  profileAvatar: typeof profileAvatar
  profileBanner: typeof profileBanner
  profile: typeof profile
  projectCollaboration: typeof projectCollaboration
  publishing: typeof publishing
  remix: typeof remix
  serverClock: typeof serverClock
  rewards: typeof rewards
  sharing: typeof sharing
  station: typeof station
  studioProjects: typeof studioProjects
  trust: typeof trust
  wallet: typeof wallet
  web3: typeof web3
}

/** The backend the hooks below it call; null outside a provider, which `useBackend` reports in words. */
export const BackendContext = createContext<Backend | null>(null)

/** The injected backend, or null where none is provided (a wrapper outside the pages' providers). */
export const useOptionalBackend = (): Backend | null => useContext(BackendContext)

/** The injected backend; throws when no provider is above (src/app provides the real one, tests a fake). */
export function useBackend(): Backend {
  const backend = useContext(BackendContext)
  if (!backend)
    throw new Error('No backend is provided here: render this under BackendContext (src/app/ServerState.tsx, or a fake in tests).')
  return backend
}
