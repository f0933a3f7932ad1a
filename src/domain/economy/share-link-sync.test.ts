import { describe, expect, it, vi } from 'vitest'
import type { ShareLink } from '../../backend/sharing.ts'
import { startShareLinkSync } from './share-link-sync.ts'
import { sortedLinks, useShareLinksStore } from './share-links-store.ts'

vi.mock('../session/session-sync.ts', () => ({ refreshWallet: vi.fn(async () => undefined) }))

const link = (id: string, over: Partial<ShareLink> = {}): ShareLink => ({
  id,
  token: id.repeat(64).slice(0, 64),
  item_type: 'song',
  item_id: 'neon-drift',
  platform: 'qr',
  amount: 15,
  status: 'pending',
  shared_at: `2026-11-26T10:0${id}:00Z`,
  credited_at: null,
  last_open_reason: null,
  last_open_at: null,
  ...over,
})

describe('startShareLinkSync', () => {
  it('loads the list, applies live changes, announces only a pending link turning credited, clears on stop', async () => {
    let push: (l: ShareLink) => void = () => undefined
    let resolveList: (links: ShareLink[]) => void = () => undefined
    const onCredited = vi.fn()
    const stop = startShareLinkSync('me', {
      fetch: () => new Promise((r) => (resolveList = r)),
      subscribe: (_user, onChange) => {
        push = onChange
        return () => undefined
      },
      onCredited,
    })
    // A live change before the list arrives is kept, and wins over the list's older copy.
    push(link('1', { status: 'credited' }))
    expect(onCredited).not.toHaveBeenCalled()
    resolveList([link('1'), link('2')])
    await Promise.resolve()
    await Promise.resolve()
    expect(sortedLinks(useShareLinksStore.getState().links).map((l) => [l.id, l.status])).toEqual([
      ['2', 'pending'],
      ['1', 'credited'],
    ])
    push(link('2', { status: 'credited' }))
    expect(onCredited).toHaveBeenCalledTimes(1)
    expect(onCredited).toHaveBeenCalledWith(expect.objectContaining({ id: '2', status: 'credited' }), 'me')
    push(link('2', { status: 'credited' }))
    expect(onCredited).toHaveBeenCalledTimes(1)
    stop()
    expect(useShareLinksStore.getState().links).toEqual({})
  })
})
