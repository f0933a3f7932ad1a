import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import '../../styles/index.css'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { button, byTestId } from '../../../tests/component/ui.ts'
import type { ListenAnswer } from '../../backend/wallet.ts'
import { notify } from '../../lib/notify.ts'
import { useListenPrompt } from '../../domain/economy/listen-prompt.ts'
import { StillListeningPrompt } from './StillListeningPrompt.tsx'

// After an hour without interaction the server stops paying for listening and answers
// needs_interaction. The prompt shows only then, says what it means, and its button tells the
// server at once; a failure is said in words and the prompt stays.

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }))

const confirmStillListening = vi.fn<() => Promise<ListenAnswer>>()
const server = fakeBackend({ wallet: { confirmStillListening } })
const render = () => renderWithBackend(<StillListeningPrompt />, server.backend)

const answer = (needs: boolean): ListenAnswer => ({
  session_id: 's1',
  heard_seconds: 40,
  ended: false,
  credited: 0,
  balance: 100,
  daily_earned: 0,
  listens_today: 0,
  daily_cap: 20,
  cap_reached: false,
  reason: null,
  needs_interaction: needs,
})

beforeEach(() => {
  confirmStillListening.mockReset()
  vi.mocked(notify.error).mockReset()
  useListenPrompt.setState({ needsInteraction: false, answering: false })
})

describe('StillListeningPrompt', () => {
  it('is absent while listening earns', () => {
    const el = render()
    expect(byTestId(el, 'still-listening')).toBeNull()
  })

  it('says rewards are paused and the music plays on; the answer reaches the server and closes it', async () => {
    confirmStillListening.mockResolvedValue(answer(false))
    const el = render()
    await settle(() => useListenPrompt.setState({ needsInteraction: true }))
    const prompt = byTestId(el, 'still-listening')!
    expect(prompt.getAttribute('role')).toBe('alertdialog')
    expect(prompt.textContent).toContain('Still listening?')
    expect(prompt.textContent).toContain('The music keeps playing')
    await settle(() => userEvent.click(button(prompt, "Yes, I'm listening")))
    expect(confirmStillListening).toHaveBeenCalledTimes(1)
    await expect.poll(() => byTestId(el, 'still-listening')).toBeNull()
  })

  it('keeps the prompt and says so in words when the server cannot be reached', async () => {
    confirmStillListening.mockRejectedValue(new TypeError('Failed to fetch'))
    const el = render()
    await settle(() => useListenPrompt.setState({ needsInteraction: true }))
    await settle(() => userEvent.click(button(el, "Yes, I'm listening")))
    await expect.poll(() => vi.mocked(notify.error).mock.calls.length).toBe(1)
    const [title, options] = vi.mocked(notify.error).mock.calls[0]!
    expect(title).toBe('Could not resume rewards')
    expect(String((options as { description: string }).description)).not.toMatch(/TypeError/)
    expect(byTestId(el, 'still-listening')).not.toBeNull()
  })
})
