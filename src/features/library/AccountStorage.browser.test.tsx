import { beforeEach, describe, expect, it } from 'vitest'
import '../../styles/index.css'
import { render, settle } from '../../../tests/component/render.tsx'
import { useCreationStore } from '../../domain/collection/creation-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { AccountStorage } from './AccountStorage.tsx'

// The Library's account storage panel in its states: a visitor, the figures, uploads on their way
// or waiting for a connection, and the server's message when the quota is reached.

const MB = 1024 * 1024
const signIn = () => useSessionStore.setState({ status: 'signed-in', user: { id: 'u1', email: 'a@example.com' } })

beforeEach(() => {
  useCreationStore.getState().clearAll()
  useSessionStore.setState({ status: 'signed-out', user: null })
})

describe('AccountStorage', () => {
  it('tells a visitor their work stays in this browser until they sign in', async () => {
    const el = render(<AccountStorage />)
    await settle()
    expect(el.textContent).toContain('Sign in to keep it in your account')
    expect(el.querySelector('[role="meter"]')).toBeNull()
  })

  it('shows the storage used against the quota and each upload with its progress, or why it waits', async () => {
    signIn()
    useCreationStore.getState().setUsage({ usedBytes: 125 * MB, limitBytes: 500 * MB, items: 3 })
    useCreationStore.getState().setUpload({ id: 'gen-1', title: 'Night Drive', fraction: 0.42, status: 'uploading' })
    useCreationStore.getState().setUpload({
      id: 'take-1',
      title: 'Morning take',
      fraction: 0.5,
      status: 'waiting',
      message: 'No connection to your account: the upload continues by itself when it is back.',
    })
    const el = render(<AccountStorage />)
    await settle()
    expect(el.querySelector('[data-testid="account-storage-usage"]')!.textContent).toBe('125 MB of 500 MB used · 3 tracks in your account')
    const meter = el.querySelector('[role="meter"]')!
    expect(meter.getAttribute('aria-valuenow')).toBe('25')
    expect(meter.getAttribute('aria-valuetext')).toBe('125 MB of 500 MB')
    const rows = [...el.querySelectorAll<HTMLElement>('[data-testid="creation-upload"]')]
    expect(rows.map((r) => r.dataset.status)).toEqual(['uploading', 'waiting'])
    const bars = [...el.querySelectorAll('progress')]
    expect(bars.map((b) => [b.getAttribute('aria-label'), b.value])).toEqual([
      ['Uploading Night Drive', 42],
      ['Uploading Morning take', 50],
    ])
    expect(rows[0]!.textContent).toContain('42%')
    expect(rows[1]!.textContent).toContain('50% · paused')
    expect(rows[1]!.textContent).toContain('continues by itself')
    expect(el.querySelector('[role="alert"]')).toBeNull()
  })

  it('when the quota refuses an upload, says so in the server’s words; a full account says so without one', async () => {
    signIn()
    useCreationStore.getState().setUsage({ usedBytes: 499 * MB, limitBytes: 500 * MB, items: 40 })
    const message = 'Your account storage is full: 499 MB of 500 MB used, and this needs 3 MB more. Delete something you made to make room.'
    useCreationStore.getState().setUpload({ id: 'remix-1', title: 'Remix', fraction: 0, status: 'quota', message })
    const el = render(<AccountStorage />)
    await settle()
    expect(el.querySelector('[role="alert"]')!.textContent).toBe(message)
    await settle(() => {
      useCreationStore.getState().clearUpload('remix-1')
      useCreationStore.getState().setUsage({ usedBytes: 500 * MB, limitBytes: 500 * MB, items: 41 })
    })
    expect(el.querySelector('[role="alert"]')!.textContent).toMatch(/^Your account storage is full\. Delete something/)
    expect(el.querySelector('[role="meter"]')!.getAttribute('aria-valuenow')).toBe('100')
  })
})
