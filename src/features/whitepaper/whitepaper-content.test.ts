import { describe, expect, it } from 'vitest'
import { WHITEPAPER_DATE, WHITEPAPER_SECTIONS, WHITEPAPER_VERSION } from './whitepaper-content.ts'
import { filterSections, neighbours, resolveSection } from './section-lookup.ts'
import { TOKEN_DISTRIBUTION } from '../../config/tokenomics.ts'

const KEYS = [
  'executive_summary',
  'industry_pain_points',
  'technology',
  'token_economy',
  'governance',
  'roadmap',
  'risk_management',
  'team',
  'conclusion',
]
const allText = WHITEPAPER_SECTIONS.flatMap((s) => s.items.map((i) => `${i.title} ${i.text}`)).join('\n')
const HAN = /\p{Script=Han}/gu

describe('one token distribution', () => {
  it('the whitepaper states the split the pitch deck charts, both from src/config/tokenomics.ts', () => {
    expect(TOKEN_DISTRIBUTION.reduce((a, s) => a + s.percent, 0)).toBe(100)
    expect(allText).toContain(`按 ${TOKEN_DISTRIBUTION.map((s) => `${s.percent}%`).join(' / ')} 分配给`)
    for (const share of TOKEN_DISTRIBUTION) expect(allText).toContain(share.labelZh)
    expect(allText).toContain(`其中 ${TOKEN_DISTRIBUTION[0]!.percent}% 用于社区与生态激励`)
    expect(allText).toContain(`团队持有的 ${TOKEN_DISTRIBUTION[1]!.percent}% MELO`)
  })
})

describe('whitepaper content', () => {
  it('has the nine sections in order, each with a Chinese title and at least three substantive Chinese items', () => {
    expect(WHITEPAPER_SECTIONS.map((s) => s.key)).toEqual(KEYS)
    for (const s of WHITEPAPER_SECTIONS) {
      expect(s.title).toMatch(HAN)
      expect(s.items.length).toBeGreaterThanOrEqual(3)
      for (const item of s.items) {
        expect(item.title.trim()).not.toBe('')
        // A real paragraph, not a one-liner: at least 80 Chinese characters.
        expect(item.text.match(HAN)?.length ?? 0).toBeGreaterThanOrEqual(80)
      }
      expect(new Set(s.items.map((i) => i.title)).size).toBe(s.items.length)
    }
  })

  it('states the required figures', () => {
    for (const figure of [
      '10 亿枚',
      '60% / 15% / 25%',
      '85% / 5% / 10%',
      '30%',
      '8%–15%',
      '500 美元',
      '11 名成员',
      '1,000 MELO',
      '五名委员会成员联署',
      '质押总量 25%',
    ])
      expect(allText, figure).toContain(figure)
    expect(WHITEPAPER_VERSION).toBe('2.0')
    expect(WHITEPAPER_DATE).toBe('2024年7月')
    expect(allText).toContain('2.0 版本，发布于 2024年7月')
  })

  it('names the token both ways: MELO in the paper, CUBE in the app', () => {
    const summary = resolveSection('executive_summary')
      .items.map((i) => i.text)
      .join('')
    expect(summary).toContain('MELO')
    expect(summary).toContain('CUBE')
  })
})

describe('section lookup', () => {
  it('falls back to the executive summary for unknown or missing keys', () => {
    expect(resolveSection('governance').key).toBe('governance')
    expect(resolveSection('nope').key).toBe('executive_summary')
    expect(resolveSection(undefined).key).toBe('executive_summary')
    expect(resolveSection('__proto__').key).toBe('executive_summary')
  })

  it('gives neighbours with nothing before the first or after the last', () => {
    expect(neighbours('executive_summary')).toMatchObject({ previous: null, next: { key: 'industry_pain_points' } })
    expect(neighbours('governance')).toMatchObject({ previous: { key: 'token_economy' }, next: { key: 'roadmap' } })
    expect(neighbours('conclusion')).toMatchObject({ previous: { key: 'team' }, next: null })
  })

  it('filters by Chinese title or English name, ignoring case and surrounding spaces', () => {
    expect(filterSections('').length).toBe(9)
    expect(filterSections('代币').map((s) => s.key)).toEqual(['token_economy'])
    expect(filterSections('  ROAD ').map((s) => s.key)).toEqual(['roadmap'])
    expect(filterSections('管理').map((s) => s.key)).toEqual(['risk_management'])
    expect(filterSections('zzz')).toEqual([])
  })
})
