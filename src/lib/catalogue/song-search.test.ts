import { describe, expect, it } from 'vitest'
import { CATALOGUE_SONGS, SAMPLE_SONGS } from './sample-songs.ts'
import type { Song } from './song.ts'
import { artistSlug, foldText, searchSongs, songScore } from './song-search.ts'

const song = (id: string, title: string, artist: string, genre?: string): Song => ({
  id,
  title,
  artist,
  duration: '1:00',
  image: '/x.svg',
  audioUrl: `/audio/${id}.mp3`,
  ...(genre ? { genre } : {}),
})
const titles = (songs: readonly Song[]) => songs.map((s) => s.title)

describe('foldText and artistSlug', () => {
  it('folds case, diacritics and punctuation', () => {
    expect(foldText('  Beyoncé — CAFÉ  Noir! ')).toBe('beyonce cafe noir')
    expect(foldText('Ærø Straße')).toBe('ærø straße') // letters without a decomposition stay letters
    expect(artistSlug('Wren & Relay')).toBe('wren-relay')
    expect(artistSlug('Grid Runners')).toBe('grid-runners')
    expect(artistSlug('!!!')).toBe('unknown')
  })
})

describe('searchSongs', () => {
  const songs = [
    song('a', 'Drift of Neon', 'Night Owls', 'synthwave'),
    song('b', 'Neon Drift', 'Synthwave Collective', 'synthwave'),
    song('c', 'Café Noir', 'Amélie Sound', 'jazz'),
    song('d', 'Ocean', 'Neon Tide', 'ambient'),
    song('e', 'Jazzed Up', 'Brass Kids', 'pop'),
  ]

  it('matches title, artist and genre, whatever the case and the accents', () => {
    expect(titles(searchSongs(songs, 'cafe'))).toEqual(['Café Noir'])
    expect(titles(searchSongs(songs, 'AMELIE'))).toEqual(['Café Noir'])
    expect(titles(searchSongs(songs, 'ambient'))).toEqual(['Ocean'])
    expect(searchSongs(songs, 'no such song')).toEqual([])
  })

  it('needs every word to match somewhere (title, artist or genre)', () => {
    expect(titles(searchSongs(songs, 'noir jazz'))).toEqual(['Café Noir'])
    expect(titles(searchSongs(songs, 'noir rock'))).toEqual([])
  })

  it('ranks the title over the artist over the genre, and the whole title before a word inside it', () => {
    // "neon": title start (Neon Drift) > title word (Drift of Neon) > artist (Neon Tide)
    expect(titles(searchSongs(songs, 'neon'))).toEqual(['Neon Drift', 'Drift of Neon', 'Ocean'])
    expect(titles(searchSongs(songs, 'neon drift'))).toEqual(['Neon Drift', 'Drift of Neon'])
    // "jazz": a title's word start outranks the same word as a genre
    expect(titles(searchSongs(songs, 'jazz'))).toEqual(['Jazzed Up', 'Café Noir'])
    expect(songScore(songs[1]!, 'Neon Drift')).toBeGreaterThan(songScore(songs[0]!, 'Neon Drift'))
  })

  it('keeps every song, in order, for an empty query; ties keep the given order', () => {
    expect(searchSongs(songs, '  ')).toEqual(songs)
    const twins = [song('x', 'Same', 'One'), song('y', 'Same', 'Two')]
    expect(searchSongs(twins, 'same').map((s) => s.id)).toEqual(['x', 'y'])
  })

  it('finds every catalogue song by its own title first, and catalogue songs outside the five samples', () => {
    for (const s of CATALOGUE_SONGS) expect(searchSongs(CATALOGUE_SONGS, s.title)[0]?.id, s.id).toBe(s.id)
    const hits = searchSongs(CATALOGUE_SONGS, 'kernel panic')
    expect(hits[0]?.title).toBe('Kernel Panic')
    expect(SAMPLE_SONGS.some((s) => s.id === hits[0]?.id)).toBe(false)
  })
})
