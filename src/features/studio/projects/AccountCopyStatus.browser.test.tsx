import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../../tests/component/render.tsx'
import { useAccountCopyStatus } from './account-copy-status.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { AccountCopyStatus } from './AccountCopyStatus.tsx'

const retry = vi.fn()
vi.mock('./studio-project-sync.ts', () => ({ retryProjectUpload: (id: string) => retry(id) }))
vi.mock('./project-copy-service.ts', () => ({ openProjectFromAccount: vi.fn() }))

// The status line beside a local project: every state of its automatic upload, in words.
const SAVED_AT = Date.UTC(2026, 11, 3, 12, 4)
const project = { id: 'p-1', name: 'Night Drive', createdAt: 1, updatedAt: SAVED_AT, trackCount: 2 }
const listed = (audioUploadedAt: string | null) =>
  useAccountProjectStore.setState({
    userId: 'u-1',
    status: 'ready',
    projects: [{ id: 'p-1', name: 'Night Drive', trackCount: 2, durationSeconds: 3, createdAt: '', updatedAt: '', audioUploadedAt }],
  })
const text = (el: HTMLElement) => el.querySelector('[data-testid="project-account-status"]')!.textContent

beforeEach(() => {
  retry.mockClear()
  useAccountCopyStatus.getState().clear()
  listed(null)
})

describe('AccountCopyStatus', () => {
  it('says where the upload stands: only here, queued, uploading with progress, waiting, saved at a time', async () => {
    const el = render(<AccountCopyStatus project={project} />)
    expect(text(el)).toBe('· Only in this browser: saving it here stores it in your account')
    await settle(() => useAccountCopyStatus.getState().set('p-1', { phase: 'queued' }))
    expect(text(el)).toBe('· Saving to your account…')
    await settle(() => useAccountCopyStatus.getState().set('p-1', { phase: 'uploading', progress: 0.4 }))
    expect(text(el)).toBe('· Uploading… 40%')
    await settle(() => useAccountCopyStatus.getState().waitAll())
    expect(text(el)).toBe('· Waiting for connection: it uploads as soon as the server can be reached')
    await settle(() => {
      useAccountCopyStatus.getState().set('p-1', null)
      listed(new Date(SAVED_AT).toISOString())
    })
    const time = new Date(SAVED_AT).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    expect(text(el)).toBe(`· Saved to your account ${time}`)
    await settle(() => listed(new Date(SAVED_AT - 60_000).toISOString()))
    expect(text(el)).toBe('· Your account has an older version: saving it here uploads this one')
    await settle(() => listed(new Date(SAVED_AT + 60_000).toISOString()))
    expect(text(el)).toContain('Your account has a newer version')
    expect(el.querySelector('button')!.getAttribute('aria-label')).toBe('Get the newer version of Night Drive from your account')
  })

  it("a refusal says the server's reason and offers Try again", async () => {
    const el = render(<AccountCopyStatus project={project} />)
    await settle(() =>
      useAccountCopyStatus.getState().set('p-1', { phase: 'failed', message: 'The upload would exceed your storage quota (500 MB).' }),
    )
    expect(text(el)).toBe('· Not saved to your account: The upload would exceed your storage quota (500 MB).Try again')
    await userEvent.click(el.querySelector('button')!)
    expect(retry).toHaveBeenCalledExactlyOnceWith('p-1')
  })
})
