import { useEffect, useMemo, useState } from 'react'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { useBackend } from '../../../domain/session/backend-context.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { useAuthModalStore } from '../../../domain/session/auth-modal-store.ts'
import type { ProjectRole } from '../../../backend/project-collaboration.ts'
import { ProjectRoleSelect } from './ProjectRoleSelect.tsx'
import { INVITE_PARAM, InviteLinks } from './InviteLinks.tsx'
import { PlayTogetherToggle } from './PlayTogetherToggle.tsx'

const PART_LABEL = { owner: 'owner', editor: 'editor', viewer: 'viewer' } as const

/**
 * Live collaboration on account projects: the owner goes live with the open project and invites
 * creators by username or by an invite link that expires (editor or viewer), revokes links and
 * removes collaborators; projects shared with this account can be joined live, and an invite link
 * opened here (?invite=<token>) adds its project to them; in a session, "Play together" shares
 * the transport's Play and Pause. Only for signed-in creators; a visitor who opens an invite link
 * is asked to sign in or create an account, and the token stays in the address (and in a sign-up's
 * confirmation link, src/backend/auth.ts) until they are signed in, so they land back on the invite.
 */
export function LiveSessionPanel() {
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const server = useBackend()
  const open = useMixerStore((s) => s.project)
  const tracks = useMixerStore((s) => s.tracks)
  const trackName = (id: string) => tracks.find((t) => t.id === id)?.name ?? 'a removed track'
  const accountProjects = useAccountProjectStore((s) => s.projects)
  const owned = useMemo(() => open !== null && accountProjects.some((p) => p.id === open.id), [open, accountProjects])
  const {
    session,
    status,
    collaborators,
    peers,
    shared,
    joined,
    error,
    goLive,
    leave,
    refreshCollaborators,
    refreshShared,
    invite,
    remove,
  } = useLiveSessionStore()
  const [username, setUsername] = useState('')
  const [role, setRole] = useState<ProjectRole>('editor')

  useEffect(() => {
    if (signedIn) void refreshShared(server)
  }, [signedIn, refreshShared, server])
  // An invite link opened here: followed once, and taken out of the address.
  useEffect(() => {
    if (!signedIn) return
    const url = new URL(window.location.href)
    const token = url.searchParams.get(INVITE_PARAM)
    if (!token) return
    url.searchParams.delete(INVITE_PARAM)
    window.history.replaceState(window.history.state, '', url)
    void useLiveSessionStore.getState().acceptInvite(server, token)
  }, [signedIn, server])
  useEffect(() => {
    if (signedIn && owned && open) void refreshCollaborators(server, open.id)
  }, [signedIn, owned, open, refreshCollaborators, server])

  if (!signedIn) return <InviteSignInPrompt />
  const liveHere = session !== null && open !== null && session.project.id === open.id
  return (
    <section aria-labelledby="live-heading" className="panel p-4" data-testid="live-session">
      <h2 id="live-heading" className="font-display text-sm font-bold uppercase tracking-widest text-primary">
        Live collaboration
      </h2>
      {joined && !session && (
        <p className="mt-2 text-sm" role="status">
          You joined “{joined.name}” as {joined.role}: join it live below.
        </p>
      )}
      {session && (
        <p className="mt-2 text-sm" role="status">
          {status === 'live' ? 'Live' : 'Joining'} in “{session.project.name}” as {PART_LABEL[session.part]}.
          {session.part === 'viewer' && ' Your changes stay in this studio.'}{' '}
          <button type="button" className="text-primary underline" onClick={() => void leave()}>
            Leave
          </button>
        </p>
      )}
      {session && status === 'live' && <PlayTogetherToggle viewer={session.part === 'viewer'} />}
      {session && peers.length > 0 && (
        <ul aria-label="In the project now" className="mt-1 space-y-1 text-sm">
          {peers.map((p, i) => (
            <li key={`${p.name}-${i}`} className="flex items-center gap-2">
              <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: p.colour }} />
              {p.name}
              {p.selectedTrackId && <span className="text-muted">on {trackName(p.selectedTrackId)}</span>}
            </li>
          ))}
        </ul>
      )}
      {owned && open && (
        <div className="mt-2 space-y-2 text-sm">
          {!liveHere && (
            <button
              type="button"
              className="rounded border border-primary px-2 py-1 text-primary"
              onClick={() => void goLive(server, open, 'owner')}
            >
              Go live with “{open.name}”
            </button>
          )}
          <form
            className="flex flex-wrap gap-2"
            onSubmit={(e) => {
              e.preventDefault()
              if (username.trim()) void invite(server, open.id, username.trim(), role).then((ok) => ok && setUsername(''))
            }}
          >
            <label className="sr-only" htmlFor="invite-username">
              Username to invite
            </label>
            <input
              id="invite-username"
              className="min-w-0 flex-1 rounded border border-line bg-bg px-2 py-1"
              placeholder="Username"
              maxLength={40}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
            <ProjectRoleSelect id="invite-role" label="Role" value={role} onChange={setRole} />
            <button type="submit" className="rounded border border-primary px-2 py-1 text-primary">
              Invite
            </button>
          </form>
          <InviteLinks projectId={open.id} />
          {collaborators.length > 0 && (
            <ul aria-label="Collaborators" className="space-y-1">
              {collaborators.map((c) => (
                <li key={c.userId} className="flex items-center justify-between gap-2">
                  <span>
                    {c.username} <span className="text-muted">({c.role})</span>
                  </span>
                  <button type="button" className="text-muted hover:text-fg" onClick={() => void remove(server, open.id, c.userId)}>
                    Remove {c.username}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {shared.length > 0 && (
        <>
          <h3 className="mt-3 text-xs font-semibold uppercase tracking-widest text-muted">Shared with you</h3>
          <ul className="mt-1 space-y-1 text-sm">
            {shared.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-2">
                <span>
                  {p.name} <span className="text-muted">by {p.owner ?? 'a former creator'}</span>
                </span>
                <button
                  type="button"
                  className="text-primary underline"
                  onClick={() => void goLive(server, { id: p.id, name: p.name }, p.role)}
                >
                  Join live
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {!owned && shared.length === 0 && !session && (
        <p className="mt-2 text-sm text-muted">Save the mix to your account to invite others to it live.</p>
      )}
      {error && (
        <p className="mt-2 text-sm text-red-400" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}

/** For a visitor on an invite link: sign in or sign up, then the invite is followed here. */
function InviteSignInPrompt() {
  const openAuth = useAuthModalStore((s) => s.open)
  const invited = useMemo(() => new URL(window.location.href).searchParams.has(INVITE_PARAM), [])
  if (!invited) return null
  return (
    <section aria-labelledby="invite-heading" className="panel p-4" data-testid="invite-sign-in">
      <h2 id="invite-heading" className="font-display text-sm font-bold uppercase tracking-widest text-primary">
        You are invited to a project
      </h2>
      <p className="mt-2 text-sm">Sign in or create an account to join it: you come back here and join it at once.</p>
      <div className="mt-2 flex gap-2 text-sm">
        <button type="button" className="rounded border border-primary px-2 py-1 text-primary" onClick={() => openAuth('login')}>
          Sign in to join
        </button>
        <button type="button" className="rounded border border-line px-2 py-1" onClick={() => openAuth('register')}>
          Create an account
        </button>
      </div>
    </section>
  )
}
