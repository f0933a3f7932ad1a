import { describe, expect, it } from 'vitest'
import { siteSettingsProblems, type SiteSettingsInput } from '../../backend/admin.ts'
import { preview } from './KnowledgeBaseTab.tsx'
import { brandTitle } from '../../domain/appearance/site-branding.ts'

const good: SiteSettingsInput = {
  siteTitle: 'CUBE',
  primaryColor: '#8B5CF6',
  maxFreeSongs: 1,
  apiBaseUrl: '',
  apiTimeoutMs: 5000,
  maxRetries: 3,
}

describe('site settings form rules (the server checks the same)', () => {
  it('accepts the reference defaults and an empty colour', () => {
    expect(siteSettingsProblems(good)).toEqual({})
    expect(siteSettingsProblems({ ...good, primaryColor: '' })).toEqual({})
  })
  it('names every bad field', () => {
    const bad = siteSettingsProblems({
      siteTitle: ' ',
      primaryColor: '#12345',
      maxFreeSongs: -1,
      databaseUrl: 'mysql://x',
      apiBaseUrl: 'ftp://x',
      apiTimeoutMs: 1500,
      maxRetries: 11,
    })
    expect(Object.keys(bad).sort()).toEqual([
      'apiBaseUrl',
      'apiTimeoutMs',
      'databaseUrl',
      'maxFreeSongs',
      'maxRetries',
      'primaryColor',
      'siteTitle',
    ])
    expect(siteSettingsProblems({ ...good, apiTimeoutMs: 999 }).apiTimeoutMs).toMatch(/at least 1000/)
    expect(siteSettingsProblems({ ...good, maxFreeSongs: 1.5 }).maxFreeSongs).toBeDefined()
  })
})

describe('brandTitle', () => {
  it("puts the site's title where pages write the brand, and leaves other titles alone", () => {
    expect(brandTitle('Library · CUBE Music', 'Neon Nights')).toBe('Library · Neon Nights')
    expect(brandTitle('CUBE Music', 'Neon Nights')).toBe('Neon Nights')
    expect(brandTitle('Library · CUBE Music', 'CUBE Music')).toBe('Library · CUBE Music')
    expect(brandTitle('Something else', 'Neon Nights')).toBe('Something else')
  })
})

describe('knowledge base preview', () => {
  it('is cut at 100 characters', () => {
    expect(preview('x'.repeat(100))).toBe('x'.repeat(100))
    expect(preview('y'.repeat(150))).toBe(`${'y'.repeat(100)}…`)
  })
})
