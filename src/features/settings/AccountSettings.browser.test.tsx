import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../tests/component/render.tsx'
import { changeEmail, changePassword } from '../../backend/account-settings.ts'
import { AccountSettings } from './AccountSettings.tsx'

// The e-mail and password forms with the backend mocked: what the user types reaches the right
// call, a mismatch is caught before anything is sent, and the server's refusal is shown.

vi.mock('../../backend/client.ts', () => ({ supabase: () => ({}) }))
vi.mock('../../backend/account-settings.ts', () => ({
  PASSWORD_MIN: 8,
  changeEmail: vi.fn(async () => undefined),
  changePassword: vi.fn(async () => undefined),
  totpStatus: vi.fn(async () => ({ factorId: null, needsCode: false })),
  startTotp: vi.fn(),
  verifyTotp: vi.fn(),
  removeTotp: vi.fn(),
}))

const form = (el: HTMLElement, name: string) => el.querySelector<HTMLFormElement>(`form[aria-label="${name}"]`)!
const field = (scope: HTMLElement, label: string) => {
  const l = [...scope.querySelectorAll('label')].find((x) => x.textContent === label)!
  return scope.querySelector<HTMLInputElement>(`#${CSS.escape(l.htmlFor)}`)!
}

beforeEach(() => vi.clearAllMocks())

describe('AccountSettings', () => {
  it('refuses new passwords that do not match, without asking the server', async () => {
    const el = render(<AccountSettings />)
    const pw = form(el, 'Update password')
    await settle(() => userEvent.fill(field(pw, 'Current password'), 'old-secret'))
    await settle(() => userEvent.fill(field(pw, 'New password'), 'new-secret-1'))
    await settle(() => userEvent.fill(field(pw, 'Confirm new password'), 'new-secret-2'))
    await settle(() => userEvent.click(pw.querySelector('button[type="submit"]')!))
    await expect.poll(() => pw.querySelector('[role="alert"]')?.textContent).toBe('The new passwords do not match.')
    expect(changePassword).not.toHaveBeenCalled()
  })

  it('sends the current and the new password when both entries match, then clears the form', async () => {
    const el = render(<AccountSettings />)
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
    const el = render(<AccountSettings />)
    const mail = form(el, 'Change e-mail')
    await settle(() => userEvent.fill(field(mail, 'New e-mail'), 'new@example.com'))
    await settle(() => userEvent.fill(field(mail, 'Current password'), 'guess'))
    await settle(() => userEvent.click(mail.querySelector('button[type="submit"]')!))
    await expect.poll(() => mail.querySelector('[role="alert"]')?.textContent).toBe('The current password is wrong.')
    expect(vi.mocked(changeEmail).mock.calls[0]!.slice(1)).toEqual(['guess', 'new@example.com'])
    expect(field(mail, 'New e-mail').value).toBe('new@example.com')
  })
})
