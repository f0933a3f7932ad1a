import { describe, expect, it } from 'vitest'
import { donutSegments } from './donut-geometry.ts'
import { TOKEN_DISTRIBUTION as CONFIG_DISTRIBUTION } from '../../config/tokenomics.ts'
import {
  BUSINESS_MODEL_SLIDE,
  CHAINS,
  EARNING_EXAMPLES,
  FEATURES,
  REVENUE_STREAMS,
  ROADMAP,
  SLIDE_TITLES,
  TOKEN_DISTRIBUTION,
} from './deck-figures.ts'

describe('pitch deck figures', () => {
  it('has the ten slides in order with Business Model at index 5', () => {
    expect(SLIDE_TITLES).toEqual([
      'CUBE Music',
      'The Problem',
      'Our Solution',
      'Market Opportunity',
      'Product Features',
      'Business Model',
      'Tokenomics',
      'Technology',
      'Roadmap',
      'Join the Revolution',
    ])
    expect(BUSINESS_MODEL_SLIDE).toBe(5)
  })

  it('states the fees, prices, distribution, chains, roadmap, features and earning examples', () => {
    expect(Object.fromEntries(REVENUE_STREAMS.map((r) => [r.name, r.value]))).toEqual({
      'NFT minting fee': '5%',
      'Marketplace fee': '2.5%',
      'Token transaction fee': '0.5%',
      'Premium AI': '$9.99/month',
      'Production course': '$19.99',
    })
    expect(TOKEN_DISTRIBUTION.map((s) => [s.label, s.percent])).toEqual([
      ['Community', 60],
      ['Team', 15],
      ['Reserve & liquidity', 25],
    ])
    expect(TOKEN_DISTRIBUTION.reduce((a, s) => a + s.percent, 0)).toBe(100)
    // The whitepaper's figures too: one object, src/config/tokenomics.ts.
    expect(TOKEN_DISTRIBUTION).toBe(CONFIG_DISTRIBUTION)
    expect(CHAINS).toEqual(['Ethereum', 'Polygon'])
    expect(ROADMAP.map((r) => r.quarter)).toEqual(['Q1 2024', 'Q2 2024', 'Q3 2024', 'Q4 2024'])
    expect(FEATURES.map((f) => f.name)).toEqual([
      'AI Music Generator',
      'Live Mixer',
      'NFT Minting',
      'Listen-to-Earn',
      'Social Sharing',
      'Remix Studio',
    ])
    expect(EARNING_EXAMPLES).toEqual([
      { action: 'Create a track', reward: '50 CUBE' },
      { action: 'Community participation', reward: '25 CUBE per week' },
    ])
  })
})

describe('donut geometry', () => {
  const segs = donutSegments([40, 25, 20, 15], 100, 100, 90, 50)

  it('sweeps each slice in proportion and closes the circle', () => {
    const sweeps = segs.map((s) => (s.endAngle - s.startAngle) / (2 * Math.PI))
    sweeps.forEach((v, i) => expect(v).toBeCloseTo([0.4, 0.25, 0.2, 0.15][i]!, 10))
    expect(segs[0]!.startAngle).toBe(0)
    expect(segs[3]!.endAngle).toBeCloseTo(2 * Math.PI, 10)
    for (let i = 1; i < segs.length; i++) expect(segs[i]!.startAngle).toBeCloseTo(segs[i - 1]!.endAngle, 10)
  })

  it("starts at 12 o'clock, uses the large-arc flag only past half a turn, and labels mid-ring", () => {
    expect(segs[0]!.path.startsWith('M 100 10 ')).toBe(true)
    expect(segs[0]!.path).toContain('A 90 90 0 0 1')
    expect(donutSegments([60, 40], 0, 0, 10, 5)[0]!.path).toContain('A 10 10 0 1 1')
    // The 40% slice's middle is at 0.2 turn clockwise from the top, at radius 70.
    const a = 0.2 * 2 * Math.PI
    expect(segs[0]!.labelX).toBeCloseTo(100 + 70 * Math.sin(a), 2)
    expect(segs[0]!.labelY).toBeCloseTo(100 - 70 * Math.cos(a), 2)
  })

  it('draws a lone 100% slice as a visible ring and rejects nonsense', () => {
    const [full] = donutSegments([1], 0, 0, 10, 5)
    expect(full!.path).toContain('A 10 10 0 1 1')
    expect(full!.path).not.toContain('NaN')
    expect(() => donutSegments([0, 0], 0, 0, 10, 5)).toThrow()
    expect(() => donutSegments([1, -1, 3], 0, 0, 10, 5)).toThrow()
  })
})
