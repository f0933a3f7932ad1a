/**
 * The one index of every song a listener can play: the built-in catalogue (45 songs), the songs
 * creators published that the server lets this user see, and the user's own tracks (generated,
 * recorded, uploaded; audio on this device). The Library, the artist pages and every song picker
 * read it, so a song found in one place is found in all.
 *
 *   buildSongIndex({ catalogue, published, own }) → IndexedSong[]   own (newest first), catalogue, published
 *   useSongIndex()                  the index for the page (loads the published songs through the
 *                                   injected backend, follows sign-in)
 *   searchIndex(index, query)       search by title, artist, genre (src/lib/catalogue/song-search.ts)
 *   genresOf(index) / artistsOf(index)   the browse facets, with counts and links
 *   catalogueArtist(slug)           a catalogue artist's name and songs, or null
 */
import { useEffect, useMemo } from 'react'
import { create } from 'zustand'
import type { CatalogueRow } from '../../backend/publishing.ts'
import { CATALOGUE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { artistSlug, foldText, searchSongs } from '../../lib/catalogue/song-search.ts'
import { useBackend } from '../session/backend-context.ts'
import { useSessionStore } from '../session/session-store.ts'
import { catalogueSong } from './catalogue-song.ts'
import { useLibraryStore } from './library-store.ts'

/** Where a song comes from: the shipped catalogue, a creator's publication, or the user's own device. */
export type SongSource = 'catalogue' | 'published' | 'own'

export interface IndexedSong {
  song: Song
  source: SongSource
  /** The artist's page: /artist/{slug} for a catalogue artist, /user/{name} for a creator; null for the user's own tracks. */
  artistHref: string | null
}

export const catalogueArtistHref = (artist: string) => `/artist/${artistSlug(artist)}`
export const creatorHref = (username: string) => `/user/${encodeURIComponent(username)}`

export function buildSongIndex(sources: {
  catalogue: readonly Song[]
  published: readonly CatalogueRow[]
  own: readonly Song[]
}): IndexedSong[] {
  const seen = new Set<string>()
  const out: IndexedSong[] = []
  const add = (entry: IndexedSong) => {
    if (seen.has(entry.song.id)) return
    seen.add(entry.song.id)
    out.push(entry)
  }
  for (const song of sources.own) add({ song, source: 'own', artistHref: null })
  for (const song of sources.catalogue) add({ song, source: 'catalogue', artistHref: catalogueArtistHref(song.artist) })
  for (const row of sources.published) {
    if (!row.owner_id || !row.audio_url) continue
    add({ song: catalogueSong(row), source: 'published', artistHref: creatorHref(row.artist) })
  }
  return out
}

export const searchIndex = (index: readonly IndexedSong[], query: string): IndexedSong[] => searchSongs(index, query, (e) => e.song)

/** 'hip-hop' → 'Hip-Hop'. */
export const genreLabel = (genre: string) => genre.replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase())

/** The genre key a song is browsed under ('' when it has none). */
export const genreKey = (song: Song) => foldText(song.genre ?? '')

export interface GenreFacet {
  key: string
  label: string
  count: number
}

/** Every genre in the index with its number of songs, most songs first, then by name. */
export function genresOf(index: readonly IndexedSong[]): GenreFacet[] {
  const counts = new Map<string, GenreFacet>()
  for (const { song } of index) {
    const key = genreKey(song)
    if (!key) continue
    const facet = counts.get(key) ?? { key, label: genreLabel(song.genre!.trim()), count: 0 }
    facet.count++
    counts.set(key, facet)
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
}

export interface ArtistFacet {
  name: string
  source: SongSource
  href: string | null
  count: number
}

/** Every artist in the index (one entry per name and kind) with their number of songs, by name. */
export function artistsOf(index: readonly IndexedSong[]): ArtistFacet[] {
  const artists = new Map<string, ArtistFacet>()
  for (const { song, source, artistHref } of index) {
    const key = `${source === 'published' ? 'creator' : source}:${foldText(song.artist)}`
    const facet = artists.get(key) ?? { name: song.artist, source, href: artistHref, count: 0 }
    facet.count++
    artists.set(key, facet)
  }
  return [...artists.values()].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
}

/** A catalogue artist by their page's slug: the name and songs, or null when there is none. */
export function catalogueArtist(slug: string, catalogue: readonly Song[] = CATALOGUE_SONGS): { name: string; songs: Song[] } | null {
  const songs = catalogue.filter((s) => artistSlug(s.artist) === slug)
  return songs.length > 0 ? { name: songs[0]!.artist, songs } : null
}

// The published songs as the server last answered for the current user (its policy hides
// private creators' songs from others, and shows a creator their own).
interface PublishedState {
  rows: CatalogueRow[]
  /** The user the rows were loaded for (null: signed out); undefined before the first answer. */
  loadedFor: string | null | undefined
  error: string | null
}

export const usePublishedSongs = create<PublishedState>()(() => ({ rows: [], loadedFor: undefined, error: null }))

let inFlight: { user: string | null; promise: Promise<void> } | null = null

/** The server call the published songs come from (the injected backend's `publishing.fetchPublishedSongs`). */
export type FetchPublishedSongs = () => Promise<CatalogueRow[]>

/** Loads the published songs for `user` through `fetchPublished` (once per user; `force` asks again, e.g. after publishing). */
export function loadPublishedSongs(fetchPublished: FetchPublishedSongs, user: string | null, force = false): Promise<void> {
  if (!force && usePublishedSongs.getState().loadedFor === user) return Promise.resolve()
  if (inFlight && inFlight.user === user && !force) return inFlight.promise
  const promise = Promise.resolve()
    .then(() => fetchPublished())
    .then(
      (rows) => {
        if (inFlight?.promise === promise) usePublishedSongs.setState({ rows, loadedFor: user, error: null })
      },
      (error: unknown) => {
        // The catalogue and the user's own tracks are still there: the Library works without the server.
        console.warn('[song-index] published songs unavailable', error)
        if (inFlight?.promise === promise) usePublishedSongs.setState({ loadedFor: user, error: 'Published songs could not be loaded' })
      },
    )
    .finally(() => {
      if (inFlight?.promise === promise) inFlight = null
    })
  inFlight = { user, promise }
  return promise
}

/** The index for a screen: the catalogue, the published songs (loaded for whoever is signed in) and the user's tracks. */
export function useSongIndex(): IndexedSong[] {
  const own = useLibraryStore((s) => s.userTracks)
  const published = usePublishedSongs((s) => s.rows)
  const user = useSessionStore((s) => s.user?.id ?? null)
  const { publishing } = useBackend()
  useEffect(() => {
    void loadPublishedSongs(publishing.fetchPublishedSongs, user)
  }, [publishing, user])
  return useMemo(() => buildSongIndex({ catalogue: CATALOGUE_SONGS, published, own }), [own, published])
}
