import { useEffect, useState } from 'react'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { useBackend } from '../../../domain/session/backend-context.ts'
import type { ProjectRole } from '../../../backend/project-collaboration.ts'
import { ProjectRoleSelect } from './ProjectRoleSelect.tsx'

/** How long a new link works, in hours (the server allows 1 to 720). */
const LIFETIMES = [
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
] as const

/** The query parameter an invite link carries its token in. */
export const INVITE_PARAM = 'invite'

export const inviteUrl = (token: string, origin = window.location.origin) =>
  `${origin}/app/studio?${INVITE_PARAM}=${encodeURIComponent(token)}`

const expiry = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })

/**
 * The owner's invite links to the open project: make one (editor or viewer, for a day, a week or
 * a month), copy it, revoke it. Anyone signed in who opens a working link joins the project.
 */
export function InviteLinks({ projectId }: { projectId: string }) {
  const server = useBackend()
  const { invites, refreshInvites, createInviteLink, revokeInvite } = useLiveSessionStore()
  const [role, setRole] = useState<ProjectRole>('viewer')
  const [hours, setHours] = useState<number>(168)
  useEffect(() => {
    void refreshInvites(server, projectId)
  }, [server, projectId, refreshInvites])
  return (
    <div className="space-y-2" data-testid="invite-links">
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          void createInviteLink(server, projectId, role, hours)
        }}
      >
        <ProjectRoleSelect id="invite-link-role" label="Invite link role" value={role} onChange={setRole} />
        <label className="sr-only" htmlFor="invite-link-lifetime">
          Invite link works for
        </label>
        <select
          id="invite-link-lifetime"
          className="rounded border border-line bg-bg px-2 py-1"
          value={hours}
          onChange={(e) => setHours(Number(e.target.value))}
        >
          {LIFETIMES.map((l) => (
            <option key={l.hours} value={l.hours}>
              {l.label}
            </option>
          ))}
        </select>
        <button type="submit" className="rounded border border-primary px-2 py-1 text-primary">
          Create invite link
        </button>
      </form>
      {invites.length > 0 && (
        <ul aria-label="Invite links" className="space-y-1">
          {invites.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center gap-2">
              <input
                readOnly
                aria-label={`Invite link as ${i.role}`}
                className="min-w-0 flex-1 rounded border border-line bg-bg px-2 py-1 font-mono text-xs"
                value={inviteUrl(i.token)}
                onFocus={(e) => e.currentTarget.select()}
              />
              <span className="text-muted">
                {i.role}, until {expiry(i.expiresAt)}
              </span>
              <button
                type="button"
                className="text-primary underline"
                onClick={() => void navigator.clipboard?.writeText(inviteUrl(i.token)).catch(() => {})}
              >
                Copy
              </button>
              <button type="button" className="text-muted hover:text-fg" onClick={() => void revokeInvite(server, projectId, i.id)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
