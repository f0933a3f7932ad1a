import { describe, expect, it } from 'vitest'
import { parseMintBody } from '../../supabase/functions/mint/handler.ts'

// The mint function's royalties: percent as the reference (0 to 50), kept to whole basis points,
// which is what mint_requests.royalties / nfts.royalties store (numeric(4,2)) and what the
// contract's ERC-2981 royalty gets (× 100).

const body = (royalties?: unknown) => ({
  name: 'Neon Drift #1',
  description: 'A track',
  image: 'https://example.com/cover.png',
  client_key: 'mint-body-key',
  ...(royalties === undefined ? {} : { royalties }),
})

const royaltiesOf = (royalties?: unknown) => {
  const parsed = parseMintBody(body(royalties))
  return parsed.ok ? parsed.body.royalties : parsed.error
}

describe('mint body royalties', () => {
  it('are percent, 5 by default, 0 and 50 allowed', () => {
    expect([royaltiesOf(), royaltiesOf(0), royaltiesOf(7.5), royaltiesOf(50)]).toEqual([5, 0, 7.5, 50])
  })

  it('are rounded to whole basis points (two decimals)', () => {
    expect([royaltiesOf(3.14159), royaltiesOf(12.005), royaltiesOf(0.004)]).toEqual([3.14, 12.01, 0])
  })

  it('outside 0 to 50 % are refused in words', () => {
    for (const value of [-1, 50.01, Number.NaN]) expect(royaltiesOf(value)).toBe('Royalties must be between 0 and 50 %')
  })
})
