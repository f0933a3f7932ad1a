import { describe, expect, it } from 'vitest'
import { catalogueRow } from '../../../tests/component/catalogue-row.ts'
import { CATALOGUE_SONGS, SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { artistsOf, buildSongIndex, catalogueArtist, genreLabel, genresOf, searchIndex } from './song-index.ts'

const row = catalogueRow
const upload: Song = {
  id: 'upload-1',
  title: 'Voice Memo Café',
  artist: 'Uploaded by you',
  duration: '0:42',
  image: '/u.svg',
  audioUrl: 'idb:upload-1',
}

const index = buildSongIndex({
  catalogue: CATALOGUE_SONGS,
  published: [row({}), row({ id: 'pub-2', title: 'Hidden', owner_id: null }), row({ id: 'pub-3', audio_url: null })],
  own: [upload],
})

describe('the song index', () => {
  it('holds the 45 catalogue songs, the published songs with audio and the user’s own tracks, each once', () => {
    expect(CATALOGUE_SONGS).toHaveLength(45)
    expect(index).toHaveLength(45 + 1 + 1)
    expect(index[0]).toMatchObject({ source: 'own', artistHref: null, song: upload })
    expect(index.filter((e) => e.source === 'catalogue').map((e) => e.song.id)).toEqual(CATALOGUE_SONGS.map((s) => s.id))
    const published = index.find((e) => e.source === 'published')!
    expect(published.artistHref).toBe('/user/kai')
    expect(published.song).toMatchObject({ id: 'pub-1', title: 'Basement Tapes', audioUrl: row({}).audio_url })
    // A catalogue song the user also keeps in the Library is listed once (as theirs).
    const twice = buildSongIndex({ catalogue: CATALOGUE_SONGS, published: [], own: [SAMPLE_SONGS[0]!] })
    expect(twice.filter((e) => e.song.id === SAMPLE_SONGS[0]!.id)).toHaveLength(1)
  })

  it('searches all three sources: catalogue songs beyond the samples, published songs, uploads (accents folded)', () => {
    expect(searchIndex(index, 'kernel')[0]?.song.title).toBe('Kernel Panic')
    expect(searchIndex(index, 'basement').map((e) => e.source)).toEqual(['published'])
    expect(searchIndex(index, 'voice memo cafe').map((e) => e.song.id)).toEqual(['upload-1'])
    // By genre: every jazz song of the catalogue, none other.
    const jazz = searchIndex(index, 'jazz').map((e) => e.song.id)
    expect(new Set(jazz)).toEqual(new Set(CATALOGUE_SONGS.filter((s) => s.genre === 'jazz').map((s) => s.id)))
  })

  it('lists every genre with its count, labelled, most songs first', () => {
    const genres = genresOf(index)
    expect(genres.reduce((n, g) => n + g.count, 0)).toBe(46) // the upload has no genre
    expect(genres.find((g) => g.key === 'hip hop')).toEqual({ key: 'hip hop', label: 'Hip-Hop', count: 5 })
    expect(genres.find((g) => g.key === 'rock')?.count).toBe(4 + 1)
    expect(genres.map((g) => g.count)).toEqual([...genres.map((g) => g.count)].sort((a, b) => b - a))
    expect(genreLabel('lofi')).toBe('Lofi')
  })

  it('lists every artist with a page: /artist/{slug} for the catalogue, /user/{name} for creators', () => {
    const artists = artistsOf(index)
    expect(artists.find((a) => a.name === 'Grid Runners')).toEqual({
      name: 'Grid Runners',
      source: 'catalogue',
      href: '/artist/grid-runners',
      count: 2,
    })
    expect(artists.find((a) => a.name === 'kai')).toEqual({ name: 'kai', source: 'published', href: '/user/kai', count: 1 })
    expect(artists.find((a) => a.name === 'Uploaded by you')?.href).toBeNull()
    expect(artists.filter((a) => a.source === 'catalogue')).toHaveLength(new Set(CATALOGUE_SONGS.map((s) => s.artist)).size)
  })

  it('finds a catalogue artist by slug, with every one of their songs', () => {
    expect(catalogueArtist('wren-relay')?.name).toBe('Wren & Relay')
    expect(catalogueArtist('pixel-bloom')?.songs.map((s) => s.artist)).toEqual(['Pixel Bloom', 'Pixel Bloom', 'Pixel Bloom'])
    expect(catalogueArtist('nobody')).toBeNull()
  })
})
