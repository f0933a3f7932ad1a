import { useEffect, useState } from 'react'
import { fetchRecommendations, type RecommendedSong } from '../../backend/discovery.ts'
import { formatDuration, type Song } from '../../lib/catalogue/song.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'

/** A recommended row as a playable Song (covers and audio are same-origin public URLs). */
export function toSong(r: RecommendedSong): Song {
  return {
    id: r.id,
    title: r.title,
    artist: r.artist,
    duration: formatDuration(Number(r.duration_seconds)),
    seconds: Number(r.duration_seconds),
    image: r.cover_url ?? '/images/covers/ai-generated.svg',
    audioUrl: r.audio_url ?? `/audio/samples/${r.id}.mp3`,
    genre: r.genre ?? undefined,
    reward: r.reward,
  }
}

/**
 * One server-ranked list of `size` songs (daily or discover), asked again when the session settles
 * or changes and on `refresh()` (a new salt: Refresh / Shuffle New).
 */
export function useRecommendations(mode: 'daily' | 'discover', size: number) {
  const status = useSessionStore((s) => s.status)
  const userId = useSessionStore((s) => s.user?.id ?? null)
  const [salt, setSalt] = useState(mode === 'daily' ? 0 : 1)
  const [songs, setSongs] = useState<Song[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (status === 'loading') return
    let cancelled = false
    fetchRecommendations(mode, salt, size).then(
      (rows) => {
        if (cancelled) return
        setSongs(rows.map(toSong))
        setError(null)
      },
      (e: unknown) => !cancelled && setError(errorMessage(e)),
    )
    return () => {
      cancelled = true
    }
  }, [mode, salt, size, status, userId])
  const refresh = () => setSalt((s) => s + 1)
  return { songs, error, refresh }
}
