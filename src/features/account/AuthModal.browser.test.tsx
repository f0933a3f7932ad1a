import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { render, settle } from '../../../tests/component/render.tsx'
import { logIn, register, resendSignupMail, sendPasswordReset } from '../../domain/session/sign-in.ts'
import { AuthModal } from './AuthModal.tsx'
import { PASSWORD_MESSAGE, USERNAME_MESSAGE } from '../../lib/profile-rules.ts'

// The Login / Register dialog as an accessible modal, with no server: tabs, required fields, the
// focus trap, an empty submit that sends nothing, Escape and focus back on the opener. (Moved from
// the e2e tier, which keeps its accessibility scan with the app's real styles.)

vi.mock('../../domain/session/sign-in.ts', () => ({
  logIn: vi.fn(async () => ({ kind: 'failed' })),
  register: vi.fn(async () => ({ ok: false, kind: 'error', message: 'x' })),
  verifyCode: vi.fn(),
  resendSignupMail: vi.fn(async () => ({ ok: true })),
  sendPasswordReset: vi.fn(async () => ({ ok: true })),
  holdStepUp: vi.fn(),
  releaseStepUp: vi.fn(),
}))

function Harness() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Login / Register
      </button>
      {open && <AuthModal initialTab="login" onClose={() => setOpen(false)} />}
    </>
  )
}

const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')
const field = (label: string) => page.getByRole('dialog').getByLabelText(label, { exact: true }).element() as HTMLInputElement
const tab = (name: string) => page.getByRole('tab', { name }).element()
const button = (name: string) => page.getByRole('dialog').getByRole('button', { name, exact: true }).element() as HTMLButtonElement

beforeEach(() => vi.clearAllMocks())

describe('AuthModal', () => {
  it('is a modal with tabs and required fields, traps focus, sends nothing when empty, and Escape returns focus', async () => {
    render(<Harness />)
    const opener = page.getByRole('button', { name: 'Login / Register' })
    await settle(() => userEvent.click(opener))
    await expect.poll(() => dialog()?.getAttribute('aria-modal')).toBe('true')
    expect(tab('Log In').getAttribute('aria-selected')).toBe('true')
    await expect.poll(() => document.activeElement).toBe(field('Email'))
    expect(field('Email').type).toBe('email')
    for (const label of ['Email', 'Password']) expect(field(label).required, label).toBe(true)

    // Tab from the last control wraps to the first; Shift+Tab from the first wraps to the last.
    button('Forgot password?').focus()
    await settle(() => userEvent.keyboard('{Tab}'))
    expect(document.activeElement).toBe(button('Close'))
    await settle(() => userEvent.keyboard('{Shift>}{Tab}{/Shift}'))
    expect(document.activeElement).toBe(button('Forgot password?'))
    for (let i = 0; i < 8; i++) {
      await settle(() => userEvent.keyboard('{Tab}'))
      expect(dialog()!.contains(document.activeElement)).toBe(true)
    }

    // An empty submit is stopped by the browser's own validation: nothing is sent.
    await settle(() => userEvent.click(button('Log In')))
    expect(logIn).not.toHaveBeenCalled()

    await settle(() => userEvent.click(tab('Register')))
    expect(tab('Register').getAttribute('aria-selected')).toBe('true')
    for (const label of ['Username', 'Email', 'Password']) expect(field(label).required, label).toBe(true)
    expect(field('Email').type).toBe('email')
    await settle(() => userEvent.click(button('Create Account')))
    expect(register).not.toHaveBeenCalled()

    await settle(() => userEvent.keyboard('{Escape}'))
    expect(dialog()).toBeNull()
    expect(document.activeElement).toBe(opener.element())
  })

  it('register: the username and password rules show while typing, in the server’s words, and block the request', async () => {
    render(<AuthModal initialTab="register" onClose={() => {}} />)
    await settle(() => userEvent.fill(field('Email'), 'new@example.com'))
    await settle(() => userEvent.fill(field('Username'), 'dj🎵'))
    await settle(() => userEvent.fill(field('Password'), 'seven77'))
    const hints = () => [...dialog()!.querySelectorAll('[data-testid="field-hint"]')].map((p) => p.textContent)
    // The rule, and the character that broke it; said once, under the field, not again on submit.
    expect(hints()).toEqual([`${USERNAME_MESSAGE.slice(0, -1)}: "🎵" is not allowed.`, PASSWORD_MESSAGE])
    expect(field('Username').getAttribute('aria-invalid')).toBe('true')
    await settle(() => userEvent.click(button('Create Account')))
    expect(register).not.toHaveBeenCalled()
    expect(dialog()!.querySelector('[role="alert"]')).toBeNull()
    expect(dialog()!.textContent?.split('is not allowed').length).toBe(2)
    expect(document.activeElement).toBe(field('Username'))
    await settle(() => userEvent.fill(field('Username'), 'dj nova'))
    expect(hints()[0]).toBe(`${USERNAME_MESSAGE.slice(0, -1)}: a space is not allowed.`)

    // Any alphabet is welcome; the name is sent in NFC as the server stores it.
    await settle(() => userEvent.fill(field('Username'), 'Jose\u0301_أحمد'))
    await settle(() => userEvent.fill(field('Password'), 'eight888'))
    expect(hints()).toEqual([])
    await settle(() => userEvent.click(button('Create Account')))
    expect(register).toHaveBeenCalledWith('José_أحمد', 'new@example.com', 'eight888')
  })

  it('register with confirmations on: "Check your mail" with the address, and the mail can be sent again', async () => {
    vi.mocked(register).mockResolvedValueOnce({ ok: true, signedIn: false })
    const onClose = vi.fn()
    render(<AuthModal initialTab="register" onClose={onClose} />)
    await settle(() => userEvent.fill(field('Username'), 'new_listener'))
    await settle(() => userEvent.fill(field('Email'), 'new@example.com'))
    await settle(() => userEvent.fill(field('Password'), 'eight888'))
    await settle(() => userEvent.click(button('Create Account')))
    await expect.poll(() => dialog()?.querySelector('[data-testid="check-mail"]')?.textContent).toContain('Check your mail')
    expect(dialog()!.textContent).toContain('We sent a confirmation link to new@example.com.')
    expect(onClose).not.toHaveBeenCalled()
    await settle(() => userEvent.click(button('Resend confirmation mail')))
    expect(resendSignupMail).toHaveBeenCalledWith('new@example.com')
    await expect
      .poll(() => dialog()?.querySelector('[data-testid="resend-status"]')?.textContent)
      .toBe('If new@example.com is waiting for confirmation, a new link is on its way.')
  })

  it('an unconfirmed log-in offers the mail again; "Forgot password?" asks for a link without saying who has an account', async () => {
    vi.mocked(logIn).mockResolvedValueOnce({ kind: 'failed', message: 'Confirm your e-mail first.', unconfirmed: true })
    render(<AuthModal initialTab="login" onClose={() => {}} />)
    await settle(() => userEvent.fill(field('Email'), 'late@example.com'))
    await settle(() => userEvent.fill(field('Password'), 'eight888'))
    await settle(() => userEvent.click(button('Log In')))
    await expect.poll(() => dialog()?.querySelector('[role="alert"]')?.textContent).toBe('Confirm your e-mail first.')
    await settle(() => userEvent.click(button('Resend confirmation mail')))
    expect(resendSignupMail).toHaveBeenCalledWith('late@example.com')

    await settle(() => userEvent.click(button('Forgot password?')))
    await settle(() => userEvent.fill(field('Email'), 'who@example.com'))
    await settle(() => userEvent.click(button('Send reset link')))
    expect(sendPasswordReset).toHaveBeenCalledWith('who@example.com')
    await expect
      .poll(() => dialog()?.querySelector('[data-testid="reset-sent"]')?.textContent)
      .toBe('If an account uses who@example.com, a link to reset its password is on its way. Check your mail.')
    vi.mocked(sendPasswordReset).mockResolvedValueOnce({
      ok: false,
      message: 'A mail was sent just now. You can only request this after 41 seconds.',
    })
    await settle(() => userEvent.click(button('Send reset link')))
    await expect.poll(() => dialog()?.querySelector('[role="alert"]')?.textContent).toContain('after 41 seconds')
    await settle(() => userEvent.click(button('Back to log in')))
    expect(button('Log In')).toBeTruthy()
  })

  it('register: spaces around the name are trimmed; a name the server says is taken is shown once, under the field', async () => {
    const taken =
      'That username is taken: it reads the same as "neon_tourist" ' +
      '(names that differ only in capitals or in letters that look alike are one name). Try another one.'
    vi.mocked(register).mockResolvedValueOnce({ ok: false, kind: 'error', message: taken })
    render(<AuthModal initialTab="register" onClose={() => {}} />)
    await settle(() => userEvent.fill(field('Email'), 'new@example.com'))
    await settle(() => userEvent.fill(field('Username'), '  NEON_TOURIST  '))
    await settle(() => userEvent.fill(field('Password'), 'eight888'))
    await settle(() => userEvent.click(button('Create Account')))
    expect(register).toHaveBeenCalledWith('NEON_TOURIST', 'new@example.com', 'eight888')
    const hints = () => [...dialog()!.querySelectorAll('[data-testid="field-hint"]')].map((p) => p.textContent)
    expect(hints()).toEqual([taken])
    expect(dialog()!.querySelector('[role="alert"]')).toBeNull()
    expect(dialog()!.textContent?.split('That username is taken').length).toBe(2)
    expect((field('Username') as HTMLInputElement).value).toBe('NEON_TOURIST')
    // Another name clears it.
    await settle(() => userEvent.fill(field('Username'), 'neon_tourist_2'))
    expect(hints()).toEqual([])
  })
})
