import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { button, byRole } from '../../../tests/component/ui.ts'
import { TwoFactorSettings } from './TwoFactorSettings.tsx'

// The two-factor switch with a fake backend: enrolling shows the QR code and secret, the code
// field takes digits only and Verify waits for six, a refused code is shown, cancelling removes
// the unverified factor.

const totpStatus = vi.fn(
  async (_client: unknown): Promise<{ factorId: string | null; needsCode: boolean }> => ({ factorId: null, needsCode: false }),
)
const startTotp = vi.fn(async (_client: unknown) => ({
  factorId: 'f1',
  qrCode: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
  secret: 'JBSWY3DPEHPK3PXP',
}))
const verifyTotp = vi.fn(async (_client: unknown, _factorId: string, _code: string) => undefined)
const removeTotp = vi.fn(async (_client: unknown, _factorId: string) => undefined)
const server = fakeBackend({ accountSettings: { totpStatus, startTotp, verifyTotp, removeTotp } })
const render = () => renderWithBackend(<TwoFactorSettings />, server.backend)

const codeInput = (el: HTMLElement) => el.querySelector<HTMLInputElement>('input[autocomplete="one-time-code"]')!

async function enrol() {
  const el = render()
  const toggle = byRole<HTMLButtonElement>(el, 'switch')
  await expect.poll(() => toggle.disabled).toBe(false)
  await settle(() => userEvent.click(toggle))
  await expect.poll(() => el.querySelector('[data-testid="totp-secret"]')?.textContent).toBe('JBSWY3DPEHPK3PXP')
  return el
}

beforeEach(() => vi.clearAllMocks())

describe('TwoFactorSettings', () => {
  it('keeps only digits and enables Verify at six, then verifies that code for the new factor', async () => {
    const el = await enrol()
    expect(startTotp).toHaveBeenCalledTimes(1)
    // The key is text beside the QR code (same row where there is room), for an app that cannot scan.
    const qr = el.querySelector('[data-testid="totp-qr"]')!.getBoundingClientRect()
    const secret = el.querySelector('[data-testid="totp-secret"]')!.getBoundingClientRect()
    if (window.innerWidth >= 480) expect(secret.left).toBeGreaterThanOrEqual(qr.right)
    await settle(() => userEvent.fill(codeInput(el), '12a34'))
    expect(codeInput(el).value).toBe('1234')
    expect(button(el, 'Verify and turn on').disabled).toBe(true)
    await settle(() => userEvent.fill(codeInput(el), '123456'))
    expect(button(el, 'Verify and turn on').disabled).toBe(false)
    vi.mocked(totpStatus).mockResolvedValueOnce({ factorId: 'f1', needsCode: false })
    await settle(() => userEvent.click(button(el, 'Verify and turn on')))
    await expect.poll(() => el.querySelector('[role="switch"]')?.getAttribute('aria-checked')).toBe('true')
    expect(vi.mocked(verifyTotp).mock.calls[0]!.slice(1)).toEqual(['f1', '123456'])
    expect(el.querySelector('form')).toBeNull()
  })

  it('shows a refused code and stays in the enrolment', async () => {
    vi.mocked(verifyTotp).mockRejectedValueOnce(new Error('Invalid TOTP code entered'))
    const el = await enrol()
    await settle(() => userEvent.fill(codeInput(el), '000000'))
    await settle(() => userEvent.click(button(el, 'Verify and turn on')))
    await expect.poll(() => el.querySelector('[role="alert"]')?.textContent).toBe('Invalid TOTP code entered')
    expect(el.querySelector('[data-testid="totp-qr"]')).not.toBeNull()
  })

  it('cancelling an enrolment removes the unverified factor and switches back off', async () => {
    const el = await enrol()
    await settle(() => userEvent.click(button(el, 'Cancel')))
    await expect.poll(() => el.querySelector('[data-testid="totp-qr"]')).toBeNull()
    expect(vi.mocked(removeTotp).mock.calls[0]![1]).toBe('f1')
    expect(el.querySelector('[role="switch"]')?.getAttribute('aria-checked')).toBe('false')
  })
})
