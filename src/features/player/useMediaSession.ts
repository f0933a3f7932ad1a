import { useEffect } from 'react'
import { usePlayerStore } from '../../domain/playback/player-store.ts'

const ARTWORK_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
}

function artworkFor(image: string): MediaImage[] {
  if (!image) return []
  const src = new URL(image, window.location.href).href
  const ext = /\.([a-z0-9]+)(?:\?|$)/i.exec(image)?.[1]?.toLowerCase() ?? ''
  const type = ARTWORK_TYPES[ext]
  return [{ src, sizes: '512x512', ...(type ? { type } : {}) }]
}

/** Lock screen / OS media controls: metadata of the current song and transport handlers. */
export function useMediaSession() {
  const song = usePlayerStore((s) => s.currentSong)
  const isPlaying = usePlayerStore((s) => s.isPlaying)
  const duration = usePlayerStore((s) => s.duration)
  const position = usePlayerStore((s) => s.position)

  useEffect(() => {
    if (!('mediaSession' in navigator)) return
    const ms = navigator.mediaSession
    const st = () => usePlayerStore.getState()
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => st().play()],
      ['pause', () => st().pause()],
      ['nexttrack', () => st().next()],
      ['previoustrack', () => st().previous()],
      ['seekto', (d) => d.seekTime != null && st().seek(d.seekTime)],
      ['seekbackward', (d) => st().seek(st().position - (d.seekOffset ?? 5))],
      ['seekforward', (d) => st().seek(st().position + (d.seekOffset ?? 5))],
    ]
    for (const [action, handler] of handlers) {
      try {
        ms.setActionHandler(action, handler)
      } catch {
        /* action not supported by this browser */
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          ms.setActionHandler(action, null)
        } catch {
          /* see above */
        }
      }
    }
  }, [])

  useEffect(() => {
    if (!('mediaSession' in navigator)) return
    navigator.mediaSession.metadata = song
      ? new MediaMetadata({ title: song.title, artist: song.artist, album: 'CUBE Music', artwork: artworkFor(song.image) })
      : null
  }, [song])

  useEffect(() => {
    if (!('mediaSession' in navigator)) return
    navigator.mediaSession.playbackState = song ? (isPlaying ? 'playing' : 'paused') : 'none'
  }, [song, isPlaying])

  useEffect(() => {
    if (!('mediaSession' in navigator) || !song || !(duration > 0)) return
    try {
      navigator.mediaSession.setPositionState({ duration, position: Math.min(position, duration), playbackRate: 1 })
    } catch {
      /* inconsistent values during a load; the next update fixes it */
    }
  }, [song, duration, position])
}
