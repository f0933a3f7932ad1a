import { create } from 'zustand'
import type { ProjectInvite, ProjectRole, SharedProject } from '../../backend/project-collaboration.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { mixerEngine } from '../../engine/mixer-engine.ts'
import { getAudioContext, unlockAudio } from '../../engine/audio-context.ts'
import { keepContextClock } from '../../engine/context-clock.ts'
import { trackClockOffset, type ClockOffsetTracker } from '../../lib/clock-offset.ts'
import { mixerSnapshot } from './mixer-store.ts'
import { joinSharedProject, type ProjectPart, type SharedPresence, type SharedSession } from './shared-project.ts'
import { peersOf, type Peer } from './presence.ts'
import type { SharedAudioStatus } from './shared-audio.ts'
import type { OpenProject } from './mixer-store.ts'
import type { Backend } from '../session/backend-context.ts'
import { useSessionStore } from '../session/session-store.ts'

/**
 * The studio's live collaboration: the session on the open project (if any), its collaborators
 * as the owner manages them, and the projects others shared with this account. Components read
 * this store and call its actions with the injected backend (`useBackend()`), whose
 * src/backend/project-collaboration.ts calls they make; a test passes fakes.
 */

/** What the actions reach on the server: the client (the calls take it first) and the collaboration calls. */
export type CollaborationServer = Pick<Backend, 'client' | 'projectCollaboration'>
/** What play together asks the server: its time. */
export type ClockServer = Pick<Backend, 'client' | 'serverClock'>

/** Play together as this creator has it: opted in, and how close the clock is (null until measured). */
export interface TogetherState {
  on: boolean
  /** Half the round trip of the best probe: the most this clock can be off the server's, ms. */
  accuracyMs: number | null
  /** Why the clock could not be measured (the last round), in words. */
  error: string | null
}

const TOGETHER_OFF: TogetherState = { on: false, accuracyMs: null, error: null }

export interface Collaborator {
  userId: string
  username: string
  role: ProjectRole
}

interface LiveSessionState {
  session: SharedSession | null
  /** 'joining' until the stored state and the room's answers are in. */
  status: 'off' | 'joining' | 'live'
  collaborators: Collaborator[]
  /** The other creators in the live session now, with what they are doing. */
  peers: Peer[]
  /** Per audioId, how the session's audio is coming (absent: held here from the start). */
  audio: Record<string, SharedAudioStatus>
  shared: SharedProject[]
  /** The open project's invite links that still work (its owner's view). */
  invites: ProjectInvite[]
  /** What the last invite link followed here gave (null before one is followed). */
  joined: { name: string; role: ProjectRole } | null
  /** The last failure, in words (null once an action the creator took works; background refreshes leave it). */
  error: string | null
  together: TogetherState
  /** Opts in to play together in the live session (or out); measures the clock while in. */
  setPlayTogether: (server: ClockServer, on: boolean) => void
  /** Play pressed: true when it started together with the others (false: play alone). */
  playTogether: () => boolean
  /** Pause pressed: true when it paused the others too (false: pause alone). */
  pauseTogether: () => boolean
  /** The playhead moved: true when it moved for everyone together (false: seek alone). */
  seekTogether: (seconds: number) => boolean
  goLive: (server: CollaborationServer, project: OpenProject, part: ProjectPart) => Promise<void>
  leave: () => Promise<void>
  /** Shows the others this creator's selection or the control they move (nothing when not live). */
  share: (change: SharedPresence) => void
  refreshCollaborators: (server: CollaborationServer, projectId: string) => Promise<void>
  refreshShared: (server: CollaborationServer) => Promise<void>
  /** True when the invite was made. */
  invite: (server: CollaborationServer, projectId: string, username: string, role: ProjectRole) => Promise<boolean>
  remove: (server: CollaborationServer, projectId: string, userId: string) => Promise<void>
  refreshInvites: (server: CollaborationServer, projectId: string) => Promise<void>
  createInviteLink: (server: CollaborationServer, projectId: string, role: ProjectRole, hours: number) => Promise<void>
  revokeInvite: (server: CollaborationServer, projectId: string, inviteId: string) => Promise<void>
  /** Follows an invite link (its token): the project joins "Shared with you". */
  acceptInvite: (server: CollaborationServer, token: string) => Promise<void>
}

/** A link that can still be followed at `now`. */
export const inviteWorks = (invite: ProjectInvite, now = Date.now()): boolean => !invite.revokedAt && Date.parse(invite.expiresAt) > now

export const useLiveSessionStore = create<LiveSessionState>()((set, get) => {
  const failed = (e: unknown) => set({ error: errorMessage(e) })
  // The clock is measured only while play together is on (every minute: clocks drift).
  let clock: ClockOffsetTracker | null = null
  let stopContextClock: (() => void) | null = null
  const endTogether = () => {
    clock?.stop()
    clock = null
    stopContextClock?.()
    stopContextClock = null
    get().session?.together.disable()
    set({ together: TOGETHER_OFF })
  }
  return {
    session: null,
    status: 'off',
    collaborators: [],
    peers: [],
    audio: {},
    shared: [],
    invites: [],
    joined: null,
    error: null,
    together: TOGETHER_OFF,
    setPlayTogether: (server, on) => {
      const session = get().session
      endTogether()
      if (!on || !session) return
      // The tick is a gesture: the audio may start now, and the graph is built before a cue comes.
      void unlockAudio()
      stopContextClock = keepContextClock(getAudioContext())
      const mix = mixerSnapshot()
      if (mix.tracks.length > 0) void mixerEngine.ensure(mix).catch(() => {})
      const tracker = trackClockOffset({
        serverTime: () => server.serverClock.fetchServerTime(server.client.supabase()),
        onEstimate: (e) => {
          if (clock === tracker) set({ together: { on: true, accuracyMs: e.accuracyMs, error: null } })
        },
        onError: (e) => {
          if (clock === tracker) set({ together: { ...get().together, error: errorMessage(e) } })
        },
      })
      clock = tracker
      session.together.enable(() => tracker.estimate()?.offsetMs ?? null)
      set({ together: { on: true, accuracyMs: null, error: null } })
    },
    playTogether: () => get().session?.together.play() ?? false,
    pauseTogether: () => get().session?.together.stop() ?? false,
    seekTogether: (seconds) => get().session?.together.seek(seconds) ?? false,
    goLive: async ({ client, projectCollaboration: calls }, project, part) => {
      await get().leave()
      // Others see this creator by username (profiles are public), as elsewhere in the app.
      const me = useSessionStore.getState().user
      const name = me ? ((await calls.usernamesOf(client.supabase(), [me.id]).catch(() => null))?.get(me.id) ?? 'a creator') : 'a creator'
      const session = joinSharedProject({
        db: client.supabase(),
        project,
        part,
        name,
        userId: me?.id,
        transport: mixerEngine,
        onAudioStatus: (id, status) => {
          if (get().session === session) set({ audio: { ...get().audio, [id]: status } })
        },
        onEnded: () => {
          if (get().session !== session) return
          endTogether()
          set({ session: null, status: 'off', peers: [] })
        },
      })
      // When each peer's playhead was heard, so a playing one moves on between reports.
      const heard = new Map<number, number>()
      session.awareness.on('change', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }) => {
        const now = performance.now()
        for (const id of [...added, ...updated]) heard.set(id, now)
        for (const id of removed) heard.delete(id)
        if (get().session === session) set({ peers: peersOf(session.awareness, heard) })
      })
      set({ session, status: 'joining', error: null, peers: [], audio: {} })
      try {
        await session.ready
        if (get().session === session) set({ status: 'live' })
      } catch (e) {
        await session.leave()
        if (get().session === session) endTogether()
        set({ session: null, status: 'off' })
        failed(e)
      }
    },
    leave: async () => {
      const session = get().session
      if (!session) return
      endTogether()
      set({ session: null, status: 'off', peers: [], audio: {} })
      await session.leave().catch(failed)
    },
    share: (change) => get().session?.share(change),
    refreshCollaborators: async ({ client, projectCollaboration: calls }, projectId) => {
      try {
        const members = await calls.listProjectMembers(client.supabase(), projectId)
        const names = await calls.usernamesOf(
          client.supabase(),
          members.map((m) => m.userId),
        )
        set({ collaborators: members.map((m) => ({ ...m, username: names.get(m.userId) ?? 'unknown' })) })
      } catch (e) {
        failed(e)
      }
    },
    refreshShared: async ({ client, projectCollaboration: calls }) => {
      try {
        set({ shared: await calls.listSharedProjects(client.supabase()) })
      } catch (e) {
        failed(e)
      }
    },
    invite: async (server, projectId, username, role) => {
      try {
        await server.projectCollaboration.inviteProjectMember(server.client.supabase(), projectId, username, role)
        set({ error: null })
        await get().refreshCollaborators(server, projectId)
        return true
      } catch (e) {
        failed(e)
        return false
      }
    },
    refreshInvites: async ({ client, projectCollaboration: calls }, projectId) => {
      try {
        set({ invites: (await calls.listProjectInvites(client.supabase(), projectId)).filter((i) => inviteWorks(i)) })
      } catch (e) {
        failed(e)
      }
    },
    createInviteLink: async (server, projectId, role, hours) => {
      try {
        await server.projectCollaboration.createProjectInvite(server.client.supabase(), projectId, role, hours)
        set({ error: null })
        await get().refreshInvites(server, projectId)
      } catch (e) {
        failed(e)
      }
    },
    revokeInvite: async (server, projectId, inviteId) => {
      try {
        await server.projectCollaboration.revokeProjectInvite(server.client.supabase(), inviteId)
        set({ error: null })
        await get().refreshInvites(server, projectId)
      } catch (e) {
        failed(e)
      }
    },
    acceptInvite: async (server, token) => {
      try {
        const { name, role } = await server.projectCollaboration.acceptProjectInvite(server.client.supabase(), token)
        set({ joined: { name, role }, error: null })
        await get().refreshShared(server)
      } catch (e) {
        failed(e)
      }
    },
    remove: async (server, projectId, userId) => {
      try {
        await server.projectCollaboration.removeProjectMember(server.client.supabase(), projectId, userId)
        set({ error: null })
        await get().refreshCollaborators(server, projectId)
      } catch (e) {
        failed(e)
      }
    },
  }
})
