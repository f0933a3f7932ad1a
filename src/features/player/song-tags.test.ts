import { describe, expect, it } from 'vitest'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { songTags } from './song-tags.ts'

const EXPECTED: Record<string, string[]> = {
  'neon-drift': ['synthwave'],
  'low-tide-memory': ['chillwave'],
  'circuit-breaker': ['electronic'],
  'rainy-terminal': ['lofi'],
  'orbital-haze': ['ambient'],
}

describe('songTags', () => {
  it.each(SAMPLE_SONGS.map((s) => [s.id, s] as const))('%s: tags are its genre, never words of the artist name', (id, song) => {
    const tags = songTags(song)
    if (EXPECTED[id]) expect(tags).toEqual(EXPECTED[id])
    else expect(tags).toEqual(song.genre ? [song.genre.toLowerCase()] : [])
    const artistWords = song.artist.toLowerCase().split(/\W+/).filter(Boolean)
    for (const t of tags) if (artistWords.includes(t)) expect(t).toBe(song.genre?.toLowerCase())
  })

  it("'Chillwave Coast' never yields 'coast'", () => {
    const song = SAMPLE_SONGS.find((s) => s.id === 'low-tide-memory')!
    expect(song.artist).toBe('Chillwave Coast')
    expect(songTags(song)).not.toContain('coast')
  })

  it('a generated track gives its genre and mood; nothing or no metadata gives no tags', () => {
    expect(songTags({ genre: 'electronic', mood: 'upbeat' })).toEqual(['electronic', 'upbeat'])
    expect(songTags({ genre: 'Ambient', mood: 'ambient' })).toEqual(['ambient'])
    expect(songTags({})).toEqual([])
    expect(songTags(null)).toEqual([])
  })
})
