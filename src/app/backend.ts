import type { Backend } from '../domain/session/backend-context.ts'
import * as accountSettings from '../backend/account-settings.ts'
import * as admin from '../backend/admin.ts'
import * as auth from '../backend/auth.ts'
import * as client from '../backend/client.ts'
import * as comments from '../backend/comments.ts'
import * as discovery from '../backend/discovery.ts'
import * as follows from '../backend/follows.ts'
import * as governance from '../backend/governance.ts'
import * as playlists from '../backend/playlists.ts'
import * as presence from '../backend/presence.ts'
import * as profileAvatar from '../backend/profile-avatar.ts'
import * as profileBanner from '../backend/profile-banner.ts'
import * as profile from '../backend/profile.ts'
import * as projectCollaboration from '../backend/project-collaboration.ts'
import * as publishing from '../backend/publishing.ts'
import * as remix from '../backend/remix.ts'
import * as serverClock from '../backend/server-clock.ts'
import * as rewards from '../backend/rewards.ts'
import * as sharing from '../backend/sharing.ts'
import * as station from '../backend/station.ts'
import * as studioProjects from '../backend/studio-projects.ts'
import * as trust from '../backend/trust.ts'
import * as wallet from '../backend/wallet.ts'
import * as web3 from '../backend/web3.ts'

/** The real server calls, injected into every data hook through BackendContext (ServerState.tsx). */
export const backend: Backend = {
  accountSettings,
  admin,
  auth,
  client,
  comments,
  discovery,
  follows,
  governance,
  playlists,
  presence,
  profileAvatar,
  profileBanner,
  profile,
  projectCollaboration,
  publishing,
  remix,
  serverClock,
  rewards,
  sharing,
  station,
  studioProjects,
  trust,
  wallet,
  web3,
}
