import { beforeEach, describe, expect, it } from 'vitest'
import { render, settle } from '../../../tests/component/render.tsx'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { StatsPanel } from './ListenStats.tsx'

// Listen to Earn's stats panel keeps the reference's labels ("Earned Today", "Tracks Listened"),
// and each figure says exactly what it counts.

const text = (el: HTMLElement, id: string) => el.querySelector(`[data-testid="${id}"]`)?.textContent

beforeEach(() => {
  useSessionStore.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'u1@example.com' },
    wallet: { balance: 131, daily_earned: 9, listens_today: 4 },
    walletStatus: 'ready',
  })
})

describe('Listen to Earn stats', () => {
  it("shows the reference's labels with the account's figures, each with its precise meaning as a hint", async () => {
    const el = render(<StatsPanel />)
    await settle()
    const labels = [...el.querySelectorAll('.grid > div > p:first-child')].map((p) => p.textContent)
    expect(labels).toEqual(['My Token Balance', 'Earned Today', 'Tracks Listened', 'Daily Limit'])
    expect(text(el, 'stat-earned')).toBe('9')
    expect(text(el, 'stat-listened')).toBe('4')
    expect(text(el, 'stat-limit')).toBe('4/20')
    expect(text(el, 'stat-earned-hint')).toBe(
      `CUBE your listening earned since 00:00 UTC (the Wallet's "Listening CUBE today"; shares and bonuses not included).`,
    )
    expect(text(el, 'stat-listened-hint')).toBe(
      `Listens rewarded since 00:00 UTC, which the daily limit counts (the Wallet's "Rewarded listens today").`,
    )
    // The hint describes the figure for assistive technology too.
    const figure = el.querySelector('[data-testid="stat-listened"]')!
    expect(document.getElementById(figure.getAttribute('aria-describedby')!)?.textContent).toBe(text(el, 'stat-listened-hint'))
  })
})
