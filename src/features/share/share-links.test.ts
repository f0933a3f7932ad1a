import { describe, expect, it } from 'vitest'
import { barPercent, facebookIntent, linkStatusText, sharePath, twitterIntent } from './share-links.ts'

describe('share links', () => {
  it('point at the pages that resolve in the app', () => {
    expect(sharePath('user', 'neo')).toBe('/user/neo')
    expect(sharePath('song', 'neon-drift')).toBe('/song/neon-drift')
    expect(sharePath('track', 'v1.abc_-')).toBe('/track/v1.abc_-')
  })
  it('build the Twitter and Facebook intents around the link', () => {
    expect(twitterIntent('http://x/song/a', 'Listen')).toBe('https://twitter.com/intent/tweet?text=Listen&url=http%3A%2F%2Fx%2Fsong%2Fa')
    expect(facebookIntent('http://x/song/a')).toBe('https://www.facebook.com/sharer/sharer.php?u=http%3A%2F%2Fx%2Fsong%2Fa')
  })
  it('scale the stat bars at 200 visits, 500 plays, 100 followers', () => {
    expect(barPercent(50, 200)).toBe(25)
    expect(barPercent(1000, 500)).toBe(100)
    expect(barPercent(0, 100)).toBe(0)
  })
  it('say what the last open did when it paid nothing, and nothing more when it paid', () => {
    const at = '2026-11-26T10:05:00Z'
    expect(linkStatusText({ status: 'pending', amount: 5, last_open_reason: null, last_open_at: null })).toBe(
      'Pending — pays 5 CUBE when someone opens your link',
    )
    expect(linkStatusText({ status: 'pending', amount: 5, last_open_reason: 'same_client', last_open_at: at })).toMatch(
      /^Opened at .+, not paid: opened from your own network or device$/,
    )
    expect(linkStatusText({ status: 'pending', amount: 5, last_open_reason: 'daily_cap', last_open_at: at })).toContain(
      'limit of paid shares',
    )
    expect(linkStatusText({ status: 'credited', amount: 15, last_open_reason: 'credited', last_open_at: at })).toBe('Credited +15 CUBE')
    expect(linkStatusText({ status: 'credited', amount: 15, last_open_reason: 'already_credited_today', last_open_at: at })).toMatch(
      /^Credited \+15 CUBE · opened again at .+: this link has already paid today$/,
    )
  })
})
