import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js'
import { fromBase64, toBase64 } from '../lib/base64.ts'

// A shared studio project on the server: its Realtime broadcast room `project:<id>`, its stored
// document updates (table project_updates) and its members (project_members, invite_project_member).
// Every call takes the supabase-js client, so Node tests use the module as is. Bytes travel as base64.

/** A broadcast room as the sync provider (src/domain/studio/project-sync.ts) uses it. */
export interface BroadcastRoom {
  send(message: Uint8Array): void
  /** Tracks the message as this member's Realtime presence (a viewer may, though it may not send). */
  sendPresence(message: Uint8Array): void
  onMessage(handler: (message: Uint8Array) => void): () => void
  onRejoin(handler: () => void): () => void
  close(): void
}

const EVENT = 'yjs'

/**
 * Project rooms are private channels, authorised per topic by the policies on realtime.messages
 * (members receive and track presence, the owner and editors send): a public topic would let
 * anyone who guesses the project's id listen in. Presence is keyed per room opened, so a member's
 * own presence is told apart from the others'.
 */
export function projectChannelConfig(presenceKey: string) {
  return { config: { private: true, broadcast: { self: false, ack: false }, presence: { key: presenceKey, enabled: true } } }
}

/**
 * Joins the private channel `project:<id>` and relays whole messages. `onStatus` hears 'joined',
 * 'rejoined', 'closed' and 'refused' (with the server's reason: not a member, or removed).
 */
export function openProjectRoom(
  db: SupabaseClient,
  projectId: string,
  onStatus?: (status: 'joined' | 'rejoined' | 'closed' | 'refused', detail?: string) => void,
): BroadcastRoom {
  const handlers = new Set<(m: Uint8Array) => void>()
  const rejoins = new Set<() => void>()
  const outbox: Uint8Array[] = []
  let channel: RealtimeChannel | null = null
  let joined = false
  let everJoined = false
  let closed = false
  const presenceKey = crypto.randomUUID()
  /** This member's presence, tracked again after each (re)join. */
  let presence: string | null = null

  const deliver = (body: unknown) => {
    if (typeof body !== 'string') return
    let bytes: Uint8Array
    try {
      bytes = fromBase64(body)
    } catch {
      return
    }
    for (const h of handlers) h(bytes)
  }

  const connect = () => {
    const ch = db.channel(`project:${projectId}`, projectChannelConfig(presenceKey))
    channel = ch
    ch.on('broadcast', { event: EVENT }, ({ payload }) => deliver((payload as { b?: unknown } | undefined)?.b))
    // Another member's presence (a viewer's, or anyone's tracked one): its last message.
    ch.on('presence', { event: 'join' }, ({ key, newPresences }) => {
      if (key === presenceKey) return
      for (const p of newPresences) deliver((p as { a?: unknown }).a)
    })
    ch.subscribe((status, err) => {
      if (closed || channel !== ch) return
      if (status === 'SUBSCRIBED') {
        joined = true
        onStatus?.(everJoined ? 'rejoined' : 'joined')
        if (everJoined) for (const h of rejoins) h()
        everJoined = true
        for (const m of outbox.splice(0)) send(m)
        if (presence !== null) void ch.track({ a: presence })
        return
      }
      joined = false
      if (status === 'CHANNEL_ERROR' && !everJoined) {
        onStatus?.('refused', err?.message)
        void db.removeChannel(ch)
      } else if (status === 'CLOSED') onStatus?.('closed')
    })
  }

  const send = (message: Uint8Array) => {
    if (!joined || !channel) {
      // Before the first join only: later drops are healed by the rejoin's sync.
      if (!everJoined) outbox.push(message)
      return
    }
    void channel.send({ type: 'broadcast', event: EVENT, payload: { b: toBase64(message) } })
  }

  const sendPresence = (message: Uint8Array) => {
    presence = toBase64(message)
    if (joined && channel) void channel.track({ a: presence })
  }

  connect()
  return {
    send,
    sendPresence,
    onMessage(h) {
      handlers.add(h)
      return () => handlers.delete(h)
    },
    onRejoin(h) {
      rejoins.add(h)
      return () => rejoins.delete(h)
    },
    close() {
      closed = true
      if (channel) void db.removeChannel(channel)
    },
  }
}

export interface StoredProjectUpdate {
  id: number
  update: Uint8Array
}

/** Rows per read: a compacted project has a snapshot and a few updates; an old one pages through. */
const PAGE = 500

/** The stored document of a project (oldest first); a row that is not base64 is skipped. */
export async function loadProjectUpdates(db: SupabaseClient, projectId: string): Promise<StoredProjectUpdate[]> {
  const out: StoredProjectUpdate[] = []
  for (let after = 0; ; ) {
    const { data, error } = await db
      .from('project_updates')
      .select('id, body')
      .eq('project_id', projectId)
      .gt('id', after)
      .order('id')
      .limit(PAGE)
    if (error) throw new Error(`Could not read the project's saved changes: ${error.message}`)
    for (const row of data) {
      try {
        out.push({ id: row.id, update: fromBase64(row.body) })
      } catch {
        // Left out; the server's check makes this a row written before it existed.
      }
    }
    if (data.length < PAGE) return out
    after = data[data.length - 1]!.id
  }
}

export async function appendProjectUpdate(db: SupabaseClient, projectId: string, update: Uint8Array): Promise<void> {
  const { error } = await db.from('project_updates').insert({ project_id: projectId, body: toBase64(update) })
  if (error) throw new Error(`Could not save the change to the project: ${error.message}`)
}

export async function compactProjectUpdates(db: SupabaseClient, projectId: string, snapshot: Uint8Array, throughId: number): Promise<void> {
  const { error } = await db.rpc('compact_project_updates', { p_project: projectId, p_through: throughId, p_snapshot: toBase64(snapshot) })
  if (error) throw new Error(`Could not compact the project's history: ${error.message}`)
}

export type ProjectRole = 'editor' | 'viewer'

export interface ProjectMember {
  userId: string
  role: ProjectRole
}

export async function inviteProjectMember(db: SupabaseClient, projectId: string, username: string, role: ProjectRole) {
  const { data, error } = await db.rpc('invite_project_member', { p_project: projectId, p_username: username, p_role: role })
  if (error) throw new Error(error.message)
  return data as { user_id: string; username: string; role: ProjectRole }
}

export async function listProjectMembers(db: SupabaseClient, projectId: string): Promise<ProjectMember[]> {
  const { data, error } = await db.from('project_members').select('user_id, role').eq('project_id', projectId).order('invited_at')
  if (error) throw new Error(`Could not read who is in the project: ${error.message}`)
  return data.map((r) => ({ userId: r.user_id, role: r.role as ProjectRole }))
}

export async function removeProjectMember(db: SupabaseClient, projectId: string, userId: string): Promise<void> {
  const { error } = await db.from('project_members').delete().eq('project_id', projectId).eq('user_id', userId)
  if (error) throw new Error(`Could not remove the collaborator: ${error.message}`)
}

export interface SharedProject {
  id: string
  name: string
  /** The owner's username (null when their profile is gone). */
  owner: string | null
  role: ProjectRole
}

/** The projects others shared with the signed-in user, by name. */
export async function listSharedProjects(db: SupabaseClient): Promise<SharedProject[]> {
  const { data, error } = await db.rpc('my_shared_projects')
  if (error) throw new Error(`Could not read the projects shared with you: ${error.message}`)
  return (data ?? []) as SharedProject[]
}

/** Usernames of these accounts (profiles are public). */
export async function usernamesOf(db: SupabaseClient, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map()
  const { data, error } = await db
    .from('profiles')
    .select('user_id, username')
    .in('user_id', [...userIds])
  if (error) throw new Error(`Could not read collaborators' names: ${error.message}`)
  return new Map(data.map((r) => [r.user_id, r.username]))
}

/** An invite link as its owner sees it. */
export interface ProjectInvite {
  id: string
  token: string
  role: ProjectRole
  expiresAt: string
  revokedAt: string | null
}

/** Makes an invite link for the project, valid for `hours` (1 to 720); owner only. */
export async function createProjectInvite(db: SupabaseClient, projectId: string, role: ProjectRole, hours: number): Promise<ProjectInvite> {
  const { data, error } = await db.rpc('create_project_invite', { p_project: projectId, p_role: role, p_hours: hours })
  if (error) throw new Error(error.message)
  const row = data as { id: string; token: string; role: ProjectRole; expires_at: string }
  return { id: row.id, token: row.token, role: row.role, expiresAt: row.expires_at, revokedAt: null }
}

/** The project's invite links, newest first (only its owner reads them). */
export async function listProjectInvites(db: SupabaseClient, projectId: string): Promise<ProjectInvite[]> {
  const { data, error } = await db
    .from('project_invites')
    .select('id, token, role, expires_at, revoked_at')
    .eq('project_id', projectId)
    .order('created_at', { ascending: false })
  if (error) throw new Error(`Could not read the project's invite links: ${error.message}`)
  return data.map((r) => ({ id: r.id, token: r.token, role: r.role as ProjectRole, expiresAt: r.expires_at, revokedAt: r.revoked_at }))
}

export async function revokeProjectInvite(db: SupabaseClient, inviteId: string): Promise<void> {
  const { error } = await db.rpc('revoke_project_invite', { p_invite: inviteId })
  if (error) throw new Error(error.message)
}

/** Joins the project of an invite link; the server says why when the link is unknown, revoked or expired. */
export async function acceptProjectInvite(
  db: SupabaseClient,
  token: string,
): Promise<{ projectId: string; name: string; role: ProjectRole }> {
  const { data, error } = await db.rpc('accept_project_invite', { p_token: token })
  if (error) throw new Error(error.message)
  const row = data as { project_id: string; name: string; role: ProjectRole }
  return { projectId: row.project_id, name: row.name, role: row.role }
}
