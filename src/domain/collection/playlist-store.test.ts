import { beforeEach, describe, expect, it, vi } from 'vitest'

const toasts: string[] = []
vi.mock('../../lib/notify.ts', () => ({
  notify: Object.assign((m: string) => void toasts.push(m), {
    error: (m: string) => void toasts.push(`error:${m}`),
    success: (m: string) => void toasts.push(`success:${m}`),
  }),
}))

import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { defaultPlaylists, FAVORITES_ID, selectIsFavourite, usePlaylistStore, validatePlaylists } from './playlist-store.ts'
import { isSong, selectAllSongs, useLibraryStore } from './library-store.ts'

const st = () => usePlaylistStore.getState()
const song = SAMPLE_SONGS[3]!

beforeEach(() => {
  usePlaylistStore.setState({ playlists: defaultPlaylists() })
  toasts.length = 0
})

describe('playlist store', () => {
  it('has the two built-in sample playlists', () => {
    expect(st().playlists.map((p) => p.name)).toEqual(['Favorite Tracks', 'Synthwave Mix'])
  })

  it('a first visit likes nothing: no song is shown liked that the listener did not like', () => {
    expect(st().playlists.find((p) => p.id === FAVORITES_ID)?.songs).toEqual([])
    for (const s of SAMPLE_SONGS) expect(selectIsFavourite(s.id)(st()), s.id).toBe(false)
  })

  it('creates, renames and deletes; empty names are refused', () => {
    const p = st().createPlaylist('  Night   Drive ')!
    expect(p.name).toBe('Night Drive')
    expect(st().renamePlaylist(p.id, 'Dawn')).toBe(true)
    expect(st().playlists.find((x) => x.id === p.id)?.name).toBe('Dawn')
    expect(st().createPlaylist('   ')).toBeNull()
    expect(toasts).toContain('error:Playlist name cannot be empty')
    expect(st().deletePlaylist(p.id)).toBe(true)
    expect(st().playlists.some((x) => x.id === p.id)).toBe(false)
    expect(st().deletePlaylist(FAVORITES_ID)).toBe(false)
  })

  it('Favorite Tracks keeps its name', () => {
    expect(st().renamePlaylist(FAVORITES_ID, 'Mine')).toBe(false)
    expect(st().playlists.find((x) => x.id === FAVORITES_ID)?.name).toBe('Favorite Tracks')
    expect(toasts).toContain('error:Favorite Tracks cannot be renamed')
  })

  it('refuses names over 80 characters with a clear message; 80 is accepted', () => {
    expect(st().createPlaylist('x'.repeat(81))).toBeNull()
    expect(toasts).toContain('error:Playlist name must be at most 80 characters')
    expect(st().playlists).toHaveLength(2)
    const p = st().createPlaylist(`  ${'y'.repeat(80)}  `)!
    expect(p.name).toBe('y'.repeat(80))
    toasts.length = 0
    expect(st().renamePlaylist(p.id, 'z'.repeat(81))).toBe(false)
    expect(toasts).toEqual(['error:Playlist name must be at most 80 characters'])
    expect(st().playlists.find((x) => x.id === p.id)!.name).toBe('y'.repeat(80))
  })

  it("adds and removes songs, refusing a duplicate id with 'Already in playlist'", () => {
    const p = st().createPlaylist('Mix')!
    expect(st().addSong(p.id, song)).toBe(true)
    expect(st().addSong(p.id, { ...song, title: 'renamed copy' })).toBe(false)
    expect(toasts).toContain('Already in playlist')
    expect(st().playlists.find((x) => x.id === p.id)!.songs).toHaveLength(1)
    st().removeSong(p.id, song.id)
    expect(st().playlists.find((x) => x.id === p.id)!.songs).toHaveLength(0)
  })

  it('toggles favourites on and off', () => {
    expect(selectIsFavourite(song.id)(st())).toBe(false)
    expect(st().toggleFavourite(song)).toBe(true)
    expect(selectIsFavourite(song.id)(st())).toBe(true)
    expect(st().toggleFavourite(song)).toBe(false)
    expect(selectIsFavourite(song.id)(st())).toBe(false)
  })

  it('validates stored playlists: malformed → undefined (defaults), missing favourites restored', () => {
    expect(validatePlaylists('nope')).toBeUndefined()
    expect(validatePlaylists([{ id: 'x', name: 'X', songs: [{ id: 1 }] }])).toBeUndefined()
    expect(validatePlaylists([{ id: 'x' }, { id: 'x' }])).toBeUndefined()
    const ok = validatePlaylists([{ id: 'x', name: 'X', songs: [song, song] }])!
    expect(ok.map((p) => p.id)).toEqual([FAVORITES_ID, 'x'])
    expect(ok[1]!.songs).toHaveLength(1)
  })
})

describe('library store', () => {
  it('adds user tracks after the samples, replaces by id, rejects malformed songs', () => {
    const track = {
      id: 'gen-1',
      title: 'Made',
      artist: 'Me',
      duration: '0:30',
      image: '/images/covers/neon-drift.svg',
      audioUrl: 'idb:gen-1',
    }
    expect(useLibraryStore.getState().addTrack(track)).toBe(true)
    expect(useLibraryStore.getState().addTrack({ ...track, title: 'Made v2' })).toBe(true)
    expect(useLibraryStore.getState().addTrack({ id: 'bad' } as never)).toBe(false)
    const all = selectAllSongs(useLibraryStore.getState())
    expect(all).toHaveLength(SAMPLE_SONGS.length + 1)
    expect(all.at(-1)!.title).toBe('Made v2')
    expect(isSong(all.at(-1))).toBe(true)
  })
})
