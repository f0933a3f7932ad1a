import { describe, expect, it } from 'vitest'
import { recipeFromShareId, recipeRequest, shareId, shareUrl } from './share-link.ts'

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url')

describe('generated-track share links', () => {
  it('round-trips any description, including quotes, slashes, emoji and non-Latin text', () => {
    for (const description of [
      'Neon rain over the harbour',
      'a "quoted" / slashed ? & # % track',
      '霓虹雨 — 港口的夜 🌧️🎹',
      'x'.repeat(500),
    ]) {
      const recipe = { description, mood: 'mysterious' as const, genre: 'hip-hop' as const }
      const id = shareId(recipe)
      expect(id).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
      expect(recipeFromShareId(id)).toEqual(recipe)
    }
  })

  it('builds the /track/<id> URL on the given origin', () => {
    const recipe = { description: 'night drive', mood: 'chill' as const, genre: 'ambient' as const }
    expect(shareUrl('https://cube.example', recipe)).toBe(`https://cube.example/track/${shareId(recipe)}`)
  })

  it('gives different ids for different recipes', () => {
    const a = shareId({ description: 'night drive', mood: 'chill', genre: 'ambient' })
    expect(shareId({ description: 'night drive', mood: 'dark', genre: 'ambient' })).not.toBe(a)
    expect(shareId({ description: 'night drive', mood: 'chill', genre: 'jazz' })).not.toBe(a)
    expect(shareId({ description: 'night drives', mood: 'chill', genre: 'ambient' })).not.toBe(a)
  })

  it('refuses malformed, truncated or tampered ids with null', () => {
    const good = shareId({ description: 'night drive', mood: 'chill', genre: 'ambient' })
    const bad = [
      '',
      'gen-ab12-xyz',
      'v2.' + good.slice(3),
      good.slice(0, good.length - 5),
      'v1.***',
      'v1.' + b64url('not json'),
      'v1.' + b64url('{"d":"x","m":"chill","g":"ambient"}'),
      'v1.' + b64url('["x","chill"]'),
      'v1.' + b64url('["x","chill","ambient","extra"]'),
      'v1.' + b64url('[1,"chill","ambient"]'),
      'v1.' + b64url('["   ","chill","ambient"]'),
      'v1.' + b64url(JSON.stringify(['x'.repeat(501), 'chill', 'ambient'])),
      'v1.' + b64url('["x","grumpy","ambient"]'),
      'v1.' + b64url('["x","chill","polka"]'),
      'v1.' + b64url('["x","chill","ambient",[]]'),
      'v1.' + b64url('["x","chill","ambient",["kazoo"]]'),
      'v1.' + b64url('["x","chill","ambient",["saxophone"],"extra"]'),
      'v1.' + Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]).toString('base64url'),
    ]
    for (const id of bad) expect(recipeFromShareId(id), id).toBeNull()
  })

  it('trims the description it reads back', () => {
    expect(recipeFromShareId('v1.' + b64url('["  night drive  ","chill","ambient"]'))).toEqual({
      description: 'night drive',
      mood: 'chill',
      genre: 'ambient',
    })
  })

  it('keeps links without instruments byte-for-byte as before, and opens them with the genre voices', () => {
    // A link made before the vocabulary existed: exactly [description, mood, genre].
    const old = 'v1.' + b64url('["rainy neon night drive with a lonely saxophone","upbeat","electronic"]')
    expect(shareId({ description: 'rainy neon night drive with a lonely saxophone', mood: 'upbeat', genre: 'electronic' })).toBe(old)
    const recipe = recipeFromShareId(old)!
    // Everything explicit, nothing left to infer: the same piece as when the link was made.
    expect(recipeRequest(recipe)).toEqual({
      description: 'rainy neon night drive with a lonely saxophone',
      mood: 'upbeat',
      genre: 'electronic',
      instruments: [],
    })
  })

  it('records the instruments a description named as a fourth element, and reads them back', () => {
    const recipe = {
      description: 'rainy neon night drive with a lonely saxophone',
      mood: 'sad' as const,
      genre: 'electronic' as const,
      instruments: ['saxophone' as const],
    }
    const id = shareId(recipe)
    expect(id).toBe('v1.' + b64url('["rainy neon night drive with a lonely saxophone","sad","electronic",["saxophone"]]'))
    expect(recipeFromShareId(id)).toEqual(recipe)
    expect(recipeRequest(recipeFromShareId(id)!)).toEqual(recipe)
    // An empty list is written as the three-element form.
    expect(shareId({ ...recipe, instruments: [] })).toBe(shareId({ description: recipe.description, mood: 'sad', genre: 'electronic' }))
  })
})
