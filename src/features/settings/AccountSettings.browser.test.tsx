import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { byRole, field } from '../../../tests/component/ui.ts'
import { AccountSettings } from './AccountSettings.tsx'

// The e-mail and password forms with a fake backend: what the user types reaches the right
// call, a mismatch is caught before anything is sent, and the server's refusal is shown.

const changeEmail = vi.fn(async (_client: unknown, _password: string, _email: string) => undefined)
const changePassword = vi.fn(async (_client: unknown, _password: string, _next: string) => undefined)
const server = fakeBackend({
  accountSettings: { changeEmail, changePassword, totpStatus: async () => ({ factorId: null, needsCode: false }) },
})
const render = () => renderWithBackend(<AccountSettings />, server.backend)
const form = (el: HTMLElement, name: string) => byRole<HTMLFormElement>(el, 'form', name)

beforeEach(() => vi.clearAllMocks())

describe('AccountSettings', () => {
  it('refuses new passwords that do not match, without asking the server', async () => {
    const el = render()
    const pw = form(el, 'Update password')
    await settle(() => userEvent.fill(field(pw, 'Current password'), 'old-secret'))
    await settle(() => userEvent.fill(field(pw, 'New password'), 'new-secret-1'))
    await settle(() => userEvent.fill(field(pw, 'Confirm new password'), 'new-secret-2'))
    await settle(() => userEvent.click(pw.querySelector('button[type="submit"]')!))
    await expect.poll(() => pw.querySelector('[role="alert"]')?.textContent).toBe('The new passwords do not match.')
    expect(changePassword).not.toHaveBeenCalled()
  })

  it('sends the current and the new password when both entries match, then clears the form', async () => {
    const el = render()
    const pw = form(el, 'Update password')
    await settle(() => userEvent.fill(field(pw, 'Current password'), 'old-secret'))
    await settle(() => userEvent.fill(field(pw, 'New password'), 'new-secret-1'))
    await settle(() => userEvent.fill(field(pw, 'Confirm new password'), 'new-secret-1'))
    await settle(() => userEvent.click(pw.querySelector('button[type="submit"]')!))
    await expect.poll(() => vi.mocked(changePassword).mock.calls.length).toBe(1)
    expect(vi.mocked(changePassword).mock.calls[0]!.slice(1)).toEqual(['old-secret', 'new-secret-1'])
    await expect.poll(() => field(pw, 'New password').value).toBe('')
    expect(pw.querySelector('[role="alert"]')).toBeNull()
  })

  it('shows the server’s refusal of an e-mail change under the form', async () => {
    vi.mocked(changeEmail).mockRejectedValueOnce(new Error('The current password is wrong.'))
    const el = render()
    const mail = form(el, 'Change e-mail')
    await settle(() => userEvent.fill(field(mail, 'New e-mail'), 'new@example.com'))
    await settle(() => userEvent.fill(field(mail, 'Current password'), 'guess'))
    await settle(() => userEvent.click(mail.querySelector('button[type="submit"]')!))
    await expect.poll(() => mail.querySelector('[role="alert"]')?.textContent).toBe('The current password is wrong.')
    expect(vi.mocked(changeEmail).mock.calls[0]!.slice(1)).toEqual(['guess', 'new@example.com'])
    expect(field(mail, 'New e-mail').value).toBe('new@example.com')
  })
})
