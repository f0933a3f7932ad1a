// Achievements are earned from what the server records about the user, never from client claims.

export interface ActivityFacts {
  /** Rows in the listening history (qualifying listens). */
  listens: number
  /** The welcome bonus is in the ledger. */
  welcomed: boolean
  /** Server playlists holding at least one song. */
  playlistsWithSongs: number
  favourites: number
}

export interface Achievement {
  id: string
  title: string
  description: string
  earned: boolean
  progress: { current: number; target: number }
}

const step = (id: string, title: string, description: string, current: number, target: number): Achievement => ({
  id,
  title,
  description,
  earned: current >= target,
  progress: { current: Math.min(current, target), target },
})

export function achievementsFrom(f: ActivityFacts): Achievement[] {
  return [
    step('early-adopter', 'Early Adopter', 'Received the 100 CUBE welcome bonus', f.welcomed ? 1 : 0, 1),
    step('first-listen', 'First Listen', 'Listened to a track long enough to earn CUBE', f.listens, 1),
    step('ten-listens', '10 Listens', 'Ten qualifying listens', f.listens, 10),
    step('playlist-curator', 'Playlist Curator', 'Made a playlist with at least one track', f.playlistsWithSongs, 1),
    step('collector', 'Collector', 'Five tracks in Favorite Tracks', f.favourites, 5),
  ]
}

export const SAMPLE_ACHIEVEMENTS: Achievement[] = achievementsFrom({ listens: 42, welcomed: true, playlistsWithSongs: 2, favourites: 3 })
