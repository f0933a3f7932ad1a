import { SAMPLE_SONGS } from '../../../lib/catalogue/sample-songs.ts'
import type { Song } from '../../../lib/catalogue/song.ts'
import { countHistory, countLedger, fetchProfile, fetchRecentHistory, fetchSongs, type ProfileRow } from '../../../backend/profile.ts'
import { fetchFavourites, fetchPlaylists } from '../../../backend/playlists.ts'
import { achievementsFrom, SAMPLE_ACHIEVEMENTS, type Achievement } from '../../../domain/economy/achievements.ts'

export interface RecentTrack {
  key: string
  songId: string
  title: string
  artist: string
  /** The playable catalogue song, when this browser has it. */
  song?: Song
  listenedAt: string
}

export interface PlaylistSummary {
  id: string
  name: string
  count: number
  firstTitles: string[]
}

export interface ProfileView {
  username: string
  avatarUrl: string | null
  bio: string
  joined: string
  followers: number
  following: number
  tracks: number
  achievements: Achievement[]
  recent: RecentTrack[]
  playlists: PlaylistSummary[]
}

const catalogue = new Map(SAMPLE_SONGS.map((s) => [s.id, s]))

export const formatJoined = (iso: string): string => {
  const at = new Date(iso)
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
}

export const SAMPLE_PROFILE: ProfileView = {
  username: 'CyberListener',
  avatarUrl: null,
  bio: 'Night-drive synthwave, rainy lofi and everything in between. Earning CUBE one track at a time.',
  joined: 'March 2024',
  followers: 1234,
  following: 567,
  tracks: 42,
  achievements: SAMPLE_ACHIEVEMENTS,
  recent: SAMPLE_SONGS.slice(0, 4).map((s, i) => ({
    key: `sample-${s.id}`,
    songId: s.id,
    title: s.title,
    artist: s.artist,
    song: s,
    listenedAt: `${(i + 1) * 12} min ago`,
  })),
  playlists: [
    { id: 'sample-favorites', name: 'Favorite Tracks', count: 2, firstTitles: ['Neon Drift', 'Orbital Haze'] },
    { id: 'sample-synthwave', name: 'Synthwave Mix', count: 3, firstTitles: ['Neon Drift', 'Circuit Breaker', 'Low Tide Memory'] },
  ],
}

/** Everything the profile page shows about a signed-in user, read from the server. */
export async function loadProfile(userId: string, email: string): Promise<ProfileView> {
  const [profile, recentRows, listens, welcomed, playlists, favourites, songs] = await Promise.all([
    fetchProfile(userId),
    fetchRecentHistory(userId, 5),
    countHistory(userId),
    countLedger(userId, 'welcome'),
    fetchPlaylists(userId),
    fetchFavourites(userId),
    fetchSongs().catch(() => new Map()),
  ])
  const title = (id: string) => songs.get(id)?.title ?? catalogue.get(id)?.title ?? id
  const row: ProfileRow | null = profile
  return {
    username: row?.username ?? email.split('@')[0] ?? 'listener',
    avatarUrl: row?.avatar_url ?? null,
    bio: row?.bio?.trim() || 'No bio yet.',
    joined: row ? formatJoined(row.created_at) : '',
    // There is no follow graph yet: every account honestly starts (and stays) at zero.
    followers: 0,
    following: 0,
    tracks: listens,
    achievements: achievementsFrom({
      listens,
      welcomed: welcomed > 0,
      playlistsWithSongs: playlists.filter((p) => p.songIds.length > 0).length,
      favourites: favourites.length,
    }),
    recent: recentRows.map((r) => ({
      key: String(r.id),
      songId: r.song_id,
      title: title(r.song_id),
      artist: songs.get(r.song_id)?.artist ?? catalogue.get(r.song_id)?.artist ?? '',
      song: catalogue.get(r.song_id),
      listenedAt: r.listened_at,
    })),
    playlists: [
      { id: 'favourites', name: 'Favorite Tracks', count: favourites.length, firstTitles: favourites.slice(0, 3).map(title) },
      ...playlists.map((p) => ({ id: p.id, name: p.name, count: p.songIds.length, firstTitles: p.songIds.slice(0, 3).map(title) })),
    ]
      .filter((p) => p.count > 0 || p.id !== 'favourites')
      .sort((a, b) => b.count - a.count),
  }
}
