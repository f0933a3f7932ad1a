import { describe, expect, it } from 'vitest'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { defaultPlaylists, type Playlist } from './playlist-store.ts'
import { diffPlaylists, planVisitorMerge, playlistsFromServer, withoutSamples } from './playlist-merge.ts'
import type { ServerPlaylist } from '../../backend/playlists.ts'

const song = (id: string): Song => SAMPLE_SONGS.find((s) => s.id === id)!
const list = (id: string, name: string, ...songIds: string[]): Playlist => ({ id, name, songs: songIds.map(song) })
const server = (id: string, name: string, ...songIds: string[]): ServerPlaylist => ({
  id,
  name,
  created_at: '2026-01-01T00:00:00Z',
  songIds,
})

describe('withoutSamples', () => {
  it('hides the untouched samples (Favorite Tracks stays, empty) and keeps what the visitor made or changed', () => {
    expect(withoutSamples(defaultPlaylists(), defaultPlaylists())).toEqual([list('favorites', 'Favorite Tracks')])
    const own = [
      list('favorites', 'Favorite Tracks', 'neon-drift', 'rainy-terminal'),
      defaultPlaylists()[1]!,
      list('pl-1', 'Night Drive', 'circuit-breaker'),
    ]
    expect(withoutSamples(own, defaultPlaylists())).toEqual([own[0], own[2]])
  })
  it('merges the same into the account as the lists it hides from', () => {
    const local = [...defaultPlaylists(), list('pl-1', 'Night Drive', 'circuit-breaker')]
    expect(planVisitorMerge(withoutSamples(local, defaultPlaylists()), defaultPlaylists(), [], ['orbital-haze'])).toEqual(
      planVisitorMerge(local, defaultPlaylists(), [], ['orbital-haze']),
    )
  })
})

describe('planVisitorMerge', () => {
  it('brings nothing along when the visitor never touched the sample playlists', () => {
    expect(planVisitorMerge(defaultPlaylists(), defaultPlaylists(), [], [])).toEqual({ create: [], extend: [], favourites: [] })
  })

  it('creates the visitor’s own playlists and adds their new favourites', () => {
    const local = [
      list('favorites', 'Favorite Tracks', 'neon-drift', 'orbital-haze', 'rainy-terminal'),
      defaultPlaylists()[1]!,
      list('pl-1', 'Night Drive', 'circuit-breaker', 'neon-drift'),
    ]
    const plan = planVisitorMerge(local, defaultPlaylists(), [], ['orbital-haze'])
    expect(plan.create).toEqual([{ name: 'Night Drive', songIds: ['circuit-breaker', 'neon-drift'] }])
    expect(plan.favourites).toEqual(['neon-drift', 'rainy-terminal'])
    expect(plan.extend).toEqual([])
  })

  it('merges into a server playlist of the same name (case-insensitive) instead of duplicating it', () => {
    const local = [list('pl-1', ' night drive ', 'circuit-breaker', 'neon-drift')]
    const plan = planVisitorMerge(local, defaultPlaylists(), [server('u-1', 'Night Drive', 'neon-drift')], [])
    expect(plan.create).toEqual([])
    expect(plan.extend).toEqual([{ serverId: 'u-1', songIds: ['circuit-breaker'] }])
  })

  it('treats an edited sample playlist as the visitor’s own', () => {
    const edited = list('synthwave-mix', 'Synthwave Mix', 'neon-drift')
    expect(planVisitorMerge([edited], defaultPlaylists(), [], []).create).toEqual([{ name: 'Synthwave Mix', songIds: ['neon-drift'] }])
  })

  it('does not create two server playlists for two local ones with the same name', () => {
    const plan = planVisitorMerge([list('pl-1', 'Mix', 'neon-drift'), list('pl-2', 'mix', 'orbital-haze')], defaultPlaylists(), [], [])
    expect(plan.create).toHaveLength(1)
  })
})

describe('playlistsFromServer', () => {
  it('puts favourites first and resolves song ids, dropping ones this browser cannot play', () => {
    const lookup = (id: string) => SAMPLE_SONGS.find((s) => s.id === id)
    const out = playlistsFromServer(
      [server('u-1', 'Mix', 'neon-drift', 'idb:elsewhere', 'orbital-haze')],
      ['circuit-breaker'],
      lookup,
      'My Faves',
    )
    expect(out.map((p) => [p.id, p.name, p.songs.map((s) => s.id)])).toEqual([
      ['favorites', 'My Faves', ['circuit-breaker']],
      ['u-1', 'Mix', ['neon-drift', 'orbital-haze']],
    ])
  })
})

describe('diffPlaylists', () => {
  const base = [list('favorites', 'Favorite Tracks', 'neon-drift'), list('u-1', 'Mix', 'neon-drift', 'orbital-haze')]

  it('turns each kind of local edit into the matching server call', () => {
    const next = [
      list('favorites', 'Favorite Tracks', 'rainy-terminal'),
      list('u-1', 'Mix 2', 'orbital-haze', 'circuit-breaker'),
      list('pl-9', 'New', 'low-tide-memory'),
    ]
    expect(diffPlaylists(base, next)).toEqual([
      { kind: 'favourite', songId: 'rainy-terminal', on: true },
      { kind: 'favourite', songId: 'neon-drift', on: false },
      { kind: 'rename', localId: 'u-1', name: 'Mix 2' },
      { kind: 'remove-song', localId: 'u-1', songId: 'neon-drift' },
      { kind: 'add-song', localId: 'u-1', songId: 'circuit-breaker', position: 1 },
      { kind: 'create', localId: 'pl-9', name: 'New', songIds: ['low-tide-memory'] },
    ])
  })

  it('reports deleted playlists and nothing for an unchanged store', () => {
    expect(diffPlaylists(base, [base[0]!])).toEqual([{ kind: 'delete', localId: 'u-1' }])
    expect(diffPlaylists(base, base)).toEqual([])
  })
})
