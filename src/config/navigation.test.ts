import { describe, expect, it } from 'vitest'
import { NAV_GROUPS, isActivePath, moveKey, repairGroupOrder, visibleItems } from './navigation.ts'
import { APP_ROUTES, appLink } from './routes.ts'

describe('isActivePath', () => {
  it.each([
    ['/app/library', '/app/library', true],
    ['/app/library/', '/app/library', true],
    ['/library', '/app/library', true],
    ['/library/', '/app/library', true],
    ['/app/librar', '/app/library', false],
    ['/app/library/x', '/app/library', false],
    ['/application/library', '/app/library', false],
    ['/app', '/app/home', false],
  ])('%s vs %s → %s', (current, route, expected) => {
    expect(isActivePath(current, route)).toBe(expected)
  })
})

describe('group order', () => {
  const keys = NAV_GROUPS.map((g) => g.key)
  it('keeps a valid stored order', () => {
    expect(repairGroupOrder(['assets', 'earn', 'studio', 'main'])).toEqual(['assets', 'earn', 'studio', 'main'])
  })
  it.each([null, 42, 'main', { a: 1 }, [], ['nope'], [1, 2, 3]])('falls back to the default for %j', (stored) => {
    expect(repairGroupOrder(stored)).toEqual(keys)
  })
  it('drops unknown keys and duplicates and appends missing groups', () => {
    expect(repairGroupOrder(['earn', 'ghost', 'earn', 'main'])).toEqual(['earn', 'main', 'studio', 'assets'])
  })
  it('moves a key to the position of the target', () => {
    expect(moveKey(keys, 'main', 'studio')).toEqual(['studio', 'main', 'earn', 'assets'])
    expect(moveKey(keys, 'assets', 'main')).toEqual(['assets', 'main', 'studio', 'earn'])
    expect(moveKey(keys, 'main', 'ghost')).toEqual(keys)
  })
})

describe('visibility', () => {
  const assets = NAV_GROUPS.find((g) => g.key === 'assets')!
  it('shows Admin only to administrators', () => {
    expect(visibleItems(assets, { isAdmin: false }).map((i) => i.label)).not.toContain('Admin')
    expect(visibleItems(assets, { isAdmin: true }).map((i) => i.label)).toContain('Admin')
  })
  it('has an icon on every item', () => {
    for (const g of NAV_GROUPS) for (const i of g.items) expect(i.icon).toBeTruthy()
  })
})

describe('one route table', () => {
  it('derives the sidebar from the route table, in the documented order', () => {
    expect(NAV_GROUPS.map((g) => [g.key, g.items.map((i) => `${i.label} ${i.to}`)])).toEqual([
      ['main', ['Profile /app/home', 'Whitepaper /app/whitepaper']],
      ['studio', ['Live Mixer /app/studio', 'AI Generator /app/create', 'Remix Tracks /app/remix', 'Library /app/library']],
      ['earn', ['Playlists /app/playlists', 'Listen /app/listen', 'Comments /app/comments', 'Sharing /app/sharing']],
      ['assets', ['Governance /app/governance', 'Wallet /app/wallet', 'Mint NFT /app/mint', 'Settings /app/settings', 'Admin /app/admin']],
    ])
  })
  it('links every sidebar item to a route of the table', () => {
    const paths = new Set(APP_ROUTES.map((r) => appLink(r)))
    for (const g of NAV_GROUPS) for (const i of g.items) expect(paths.has(i.to), i.to).toBe(true)
  })
})
