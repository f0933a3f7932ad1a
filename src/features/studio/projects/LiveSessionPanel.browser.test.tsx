import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../../tests/component/render.tsx'
import { fakeBackend, type FakeBackend } from '../../../../tests/component/fake-backend.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { useAuthModalStore } from '../../../domain/session/auth-modal-store.ts'
import { LiveSessionPanel } from './LiveSessionPanel.tsx'

// The panel over a fake server: what the owner sees and does, what an invited creator sees.
const calls = { invite: vi.fn(), remove: vi.fn(), link: vi.fn(), revoke: vi.fn(), accept: vi.fn() }
type Link = { id: string; token: string; role: 'editor' | 'viewer'; expiresAt: string; revokedAt: string | null }
let links: Link[] = []
let server: FakeBackend
/** How the fake server answers its time: after `delayMs`, `skewMs` ahead of this page (or fails). */
let clockAnswer: { delayMs: number; skewMs: number } | 'down' = { delayMs: 0, skewMs: 0 }
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

const PROJECT = { id: 'p-1', name: 'Night Drive' }
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === name)

beforeEach(() => {
  for (const c of Object.values(calls)) c.mockClear()
  links = []
  clockAnswer = { delayMs: 0, skewMs: 0 }
  server = fakeBackend({
    serverClock: {
      fetchServerTime: async () => {
        const answer = clockAnswer
        if (answer === 'down') throw new Error('Could not ask the server for its time: offline')
        await new Promise((r) => setTimeout(r, answer.delayMs))
        return performance.timeOrigin + performance.now() + answer.skewMs
      },
    },
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
      listSharedProjects: async () => [
        { id: 'p-9', name: 'Her song', owner: 'leo', role: 'editor' },
        ...(calls.accept.mock.calls.length > 0 ? [{ id: 'p-7', name: 'Open jam', owner: 'zoe', role: 'viewer' }] : []),
      ],
      listProjectInvites: async () => links,
      createProjectInvite: async (_db: unknown, projectId: string, role: 'editor' | 'viewer', hours: number) => {
        calls.link(projectId, role, hours)
        const made = {
          id: `i-${links.length + 1}`,
          token: `tok-${links.length + 1}`,
          role,
          expiresAt: '2999-01-01T00:00:00Z',
          revokedAt: null,
        }
        links = [made, ...links]
        return made
      },
      revokeProjectInvite: async (_db: unknown, id: string) => {
        calls.revoke(id)
        links = links.map((l) => (l.id === id ? { ...l, revokedAt: '2026-01-01T00:00:00Z' } : l))
      },
      acceptProjectInvite: async (_db: unknown, token: string) => {
        calls.accept(token)
        if (token === 'old') throw new Error("This invite link expired on 2026-11-30 10:00 UTC. Ask the project's owner for a new one.")
        return { projectId: 'p-7', name: 'Open jam', role: 'viewer' }
      },
    },
  })
  useSessionStore.setState({ status: 'signed-in' })
  useMixerStore.setState({ project: PROJECT })
  useAccountProjectStore.setState({
    userId: 'u-1',
    status: 'ready',
    projects: [{ ...PROJECT, trackCount: 1, durationSeconds: 2, createdAt: '', updatedAt: '', audioUploadedAt: null }],
  })
  useLiveSessionStore.getState().setPlayTogether(server.backend, false)
  useLiveSessionStore.setState({ session: null, status: 'off', collaborators: [], shared: [], invites: [], joined: null, error: null })
  window.history.replaceState(null, '', '/')
})

/** A session's play together that records what the panel and the store ask of it. */
function fakeTogether() {
  const seen = { offset: null as (() => number | null) | null, disabled: 0 }
  const together = {
    enabled: () => seen.offset !== null,
    enable: (offset: () => number | null) => void (seen.offset = offset),
    disable: () => void ((seen.offset = null), seen.disabled++),
    play: () => false,
    stop: () => false,
    seek: () => false,
    close: () => {},
  }
  return { together, seen }
}

function liveAs(part: 'editor' | 'viewer') {
  const fake = fakeTogether()
  useMixerStore.setState({ tracks: [] })
  const session = {
    project: PROJECT,
    part,
    awareness: null as never,
    ready: Promise.resolve(),
    together: fake.together,
    share: () => {},
    leave: async () => {},
  }
  useLiveSessionStore.setState({ session, status: 'live', peers: [] })
  return fake.seen
}
const checkbox = (el: HTMLElement) =>
  [...el.querySelectorAll('label')].find((l) => l.textContent?.startsWith('Play together'))!.querySelector('input')!

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

  it('a visitor on an invite link is asked to sign in and, once signed in, lands on the invite and joins', async () => {
    useSessionStore.setState({ status: 'signed-out' })
    useAuthModalStore.setState({ openTab: null })
    window.history.replaceState(null, '', '/app/studio?invite=tok-8')
    const el = render(<LiveSessionPanel />)
    const prompt = el.querySelector('[data-testid="invite-sign-in"]')!
    expect(prompt.textContent).toContain('Sign in or create an account to join it')
    await userEvent.click(button(el, 'Sign in to join')!)
    expect(useAuthModalStore.getState().openTab).toBe('login')
    await userEvent.click(button(el, 'Create an account')!)
    expect(useAuthModalStore.getState().openTab).toBe('register')
    // Nothing is followed for a visitor: the token waits in the address.
    expect(calls.accept).not.toHaveBeenCalled()
    expect(window.location.search).toBe('?invite=tok-8')
    // Signing in (the dialog changes only the session): the invite is followed once.
    await settle(async () => {
      useSessionStore.setState({ status: 'signed-in' })
    })
    expect(calls.accept).toHaveBeenCalledExactlyOnceWith('tok-8')
    expect(window.location.search).toBe('')
    expect(el.textContent).toContain('You joined “Open jam” as viewer')
    expect(el.querySelector('[data-testid="invite-sign-in"]')).toBeNull()
  })

  it('in a live session: how this creator takes part, and who else is in the project on which track', () => {
    useMixerStore.setState({ tracks: [{ id: 't-1', name: 'Drums' } as never] })
    const session = {
      project: PROJECT,
      part: 'viewer' as const,
      awareness: null as never,
      ready: Promise.resolve(),
      together: fakeTogether().together,
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

  it('the owner makes an invite link (role, lifetime), sees it to copy, and revokes it', async () => {
    const el = render(<LiveSessionPanel />)
    await settle(async () => {
      await userEvent.selectOptions(el.querySelector<HTMLSelectElement>('#invite-link-role')!, 'editor')
      await userEvent.selectOptions(el.querySelector<HTMLSelectElement>('#invite-link-lifetime')!, '24')
      await userEvent.click(button(el, 'Create invite link')!)
    })
    expect(calls.link).toHaveBeenCalledWith('p-1', 'editor', 24)
    await vi.waitFor(() =>
      expect(el.querySelector<HTMLInputElement>('[aria-label="Invite link as editor"]')?.value).toBe(
        `${window.location.origin}/app/studio?invite=tok-1`,
      ),
    )
    await settle(() => userEvent.click(button(el, 'Revoke')!))
    expect(calls.revoke).toHaveBeenCalledWith('i-1')
    await vi.waitFor(() => expect(el.querySelector('[aria-label="Invite links"]')).toBeNull())
  })

  it('an invite link opened in the studio is followed once: its project joins the shared ones', async () => {
    window.history.replaceState(null, '', '/app/studio?invite=tok-5')
    const el = render(<LiveSessionPanel />)
    await vi.waitFor(() =>
      expect(el.querySelector('[role="status"]')?.textContent).toBe('You joined “Open jam” as viewer: join it live below.'),
    )
    expect(calls.accept.mock.calls).toEqual([['tok-5']])
    expect(window.location.search).toBe('')
    await vi.waitFor(() => expect(el.textContent).toContain('Open jam by zoe'))
  })

  it('an expired invite link is refused with the server’s reason', async () => {
    window.history.replaceState(null, '', '/app/studio?invite=old')
    const el = render(<LiveSessionPanel />)
    await vi.waitFor(() =>
      expect(el.querySelector('[role="alert"]')?.textContent).toBe(
        "This invite link expired on 2026-11-30 10:00 UTC. Ask the project's owner for a new one.",
      ),
    )
    expect(el.querySelector('[role="status"]')).toBeNull()
  })

  it('Play together: ticked, the clock is measured (five probes) and its accuracy shown; unticked, off again', async () => {
    const seen = liveAs('editor')
    clockAnswer = { delayMs: 12, skewMs: 4_000 }
    const el = render(<LiveSessionPanel />)
    expect(el.textContent).toContain('Play and Pause start and stop everyone who ticked it, at the same moment.')
    expect(checkbox(el).checked).toBe(false)
    await settle(() => userEvent.click(checkbox(el)))
    expect(checkbox(el).checked).toBe(true)
    await vi.waitFor(() => expect(el.querySelector('[data-testid="play-together-clock"]')?.textContent).toMatch(/^clock within \d+ ms$/))
    const { accuracyMs } = useLiveSessionStore.getState().together
    // Half the best round trip: at least half the server's 12 ms delay.
    expect(accuracyMs).toBeGreaterThanOrEqual(6)
    expect(el.querySelector('[data-testid="play-together-clock"]')?.textContent).toBe(`clock within ${Math.ceil(accuracyMs!)} ms`)
    expect(server.count('serverClock.fetchServerTime')).toBe(5)
    // The session plays by the measured offset: the server's 4 s lead, within the stated accuracy
    // (and a float's rounding: times since 1970 in ms are about 1.8e12, whose spacing is 0.24 µs).
    expect(Math.abs(seen.offset!()! - 4_000)).toBeLessThanOrEqual(accuracyMs! + 1e-3)
    await settle(() => userEvent.click(checkbox(el)))
    expect(checkbox(el).checked).toBe(false)
    expect(seen.offset).toBeNull()
    expect(el.querySelector('[data-testid="play-together-clock"]')).toBeNull()
  })

  it('Play together for a viewer says its own presses stay local; a clock that cannot be measured says why', async () => {
    liveAs('viewer')
    clockAnswer = 'down'
    const el = render(<LiveSessionPanel />)
    expect(el.textContent).toContain('You hear Play and Pause when the others press them; yours stay in this studio.')
    await settle(() => userEvent.click(checkbox(el)))
    await vi.waitFor(() =>
      expect(el.querySelector('[data-testid="play-together"] [role="alert"]')?.textContent).toBe(
        "Could not measure the clock against the server's: Could not ask the server for its time: offline",
      ),
    )
    expect(el.querySelector('[data-testid="play-together-clock"]')).toBeNull()
  })
})
