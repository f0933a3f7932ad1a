import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../../tests/component/render.tsx'
import { fakeBackend, type FakeBackend } from '../../../../tests/component/fake-backend.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { LiveSessionPanel } from './LiveSessionPanel.tsx'

// The panel over a fake server: what the owner sees and does, what an invited creator sees.
const calls = { invite: vi.fn(), remove: vi.fn() }
let server: FakeBackend
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

const PROJECT = { id: 'p-1', name: 'Night Drive' }
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === name)

beforeEach(() => {
  calls.invite.mockClear()
  calls.remove.mockClear()
  server = fakeBackend({
    projectCollaboration: {
      inviteProjectMember: async (_db: unknown, projectId: string, username: string, role: string) => {
        calls.invite(projectId, username, role)
        if (username === 'ghost') throw new Error('No creator is called ghost.')
        return { user_id: 'u-2', username, role }
      },
      listProjectMembers: async () =>
        calls.invite.mock.calls.length > 0 && calls.remove.mock.calls.length === 0 ? [{ userId: 'u-2', role: 'viewer' }] : [],
      usernamesOf: async () => new Map([['u-2', 'mia']]),
      removeProjectMember: async (_db: unknown, projectId: string, userId: string) => calls.remove(projectId, userId),
      listSharedProjects: async () => [{ id: 'p-9', name: 'Her song', owner: 'leo', role: 'editor' }],
    },
  })
  useSessionStore.setState({ status: 'signed-in' })
  useMixerStore.setState({ project: PROJECT })
  useAccountProjectStore.setState({
    userId: 'u-1',
    status: 'ready',
    projects: [{ ...PROJECT, trackCount: 1, durationSeconds: 2, createdAt: '', updatedAt: '', audioUploadedAt: null }],
  })
  useLiveSessionStore.setState({ session: null, status: 'off', collaborators: [], shared: [], error: null })
})

describe('LiveSessionPanel', () => {
  it('the owner invites by username as viewer and removes; a refused invite says why', async () => {
    const el = render(<LiveSessionPanel />)
    await settle(async () => {
      await userEvent.fill(el.querySelector<HTMLInputElement>('#invite-username')!, 'ghost')
      await userEvent.click(button(el, 'Invite')!)
    })
    await vi.waitFor(() => expect(el.querySelector('[role="alert"]')?.textContent).toBe('No creator is called ghost.'))
    await settle(async () => {
      await userEvent.fill(el.querySelector<HTMLInputElement>('#invite-username')!, 'mia')
      await userEvent.selectOptions(el.querySelector<HTMLSelectElement>('#invite-role')!, 'viewer')
      await userEvent.click(button(el, 'Invite')!)
    })
    expect(calls.invite).toHaveBeenLastCalledWith('p-1', 'mia', 'viewer')
    await vi.waitFor(() => expect(el.querySelector('[aria-label="Collaborators"]')?.textContent).toBe('mia (viewer)Remove mia'))
    expect(el.querySelector('[role="alert"]')).toBeNull()
    await settle(() => userEvent.click(button(el, 'Remove mia')!))
    expect(calls.remove).toHaveBeenCalledWith('p-1', 'u-2')
    await vi.waitFor(() => expect(el.querySelector('[aria-label="Collaborators"]')).toBeNull())
  })

  it('lists the projects shared with this account, by name and owner, to join live', async () => {
    const el = render(<LiveSessionPanel />)
    await vi.waitFor(() => expect(el.textContent).toContain('Her song by leo'))
    expect(button(el, 'Join live')).toBeDefined()
    expect(button(el, 'Go live with “Night Drive”')).toBeDefined()
  })

  it('shows nothing to a visitor', () => {
    useSessionStore.setState({ status: 'signed-out' })
    const el = render(<LiveSessionPanel />)
    expect(el.querySelector('[data-testid="live-session"]')).toBeNull()
  })

  it('in a live session: how this creator takes part, and who else is in the project on which track', () => {
    useMixerStore.setState({ tracks: [{ id: 't-1', name: 'Drums' } as never] })
    const session = {
      project: PROJECT,
      part: 'viewer' as const,
      awareness: null as never,
      ready: Promise.resolve(),
      share: () => {},
      leave: async () => {},
    }
    const mia = { clientId: 7, heardAt: 0, clip: null, notes: [], playhead: null, touching: null }
    useLiveSessionStore.setState({
      session,
      status: 'live',
      peers: [{ ...mia, name: 'mia', colour: 'hsl(10 80% 65%)', selectedTrackId: 't-1' }],
    })
    const el = render(<LiveSessionPanel />)
    expect(el.querySelector('[role="status"]')?.textContent).toBe(
      'Live in “Night Drive” as viewer. Your changes stay in this studio. Leave',
    )
    expect(el.querySelector('[aria-label="In the project now"]')?.textContent).toBe('miaon Drums')
  })
})
