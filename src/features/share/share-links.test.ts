import { describe, expect, it } from 'vitest'
import { barPercent, facebookIntent, sharePath, twitterIntent } from './share-links.ts'

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
})
