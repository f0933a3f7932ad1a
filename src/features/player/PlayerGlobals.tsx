import { useEffect } from 'react'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { shortcutFor } from './shortcuts.ts'
import { useMediaSession } from './useMediaSession.ts'

/** Keyboard shortcuts, Media Session and the first-gesture audio unlock; mount once per screen. */
export function PlayerGlobals() {
  useMediaSession()

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat) return
      const action = shortcutFor(e)
      if (!action) return
      const s = usePlayerStore.getState()
      e.preventDefault()
      switch (action.kind) {
        case 'toggle':
          return s.togglePlay()
        case 'seekBy':
          return s.seek(s.position + action.seconds)
        case 'volumeBy':
          return s.setVolume(s.volume + action.amount)
        case 'next':
          return s.next()
        case 'previous':
          return s.previous()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  useEffect(() => {
    // Browsers only let audio start inside a gesture: create/resume the context on the first one.
    let remove: (() => void) | undefined
    let cancelled = false
    const first = () => {
      cleanup()
      void import('../../engine/audio-context.ts').then((m) => {
        if (!cancelled) void m.unlockAudio()
        remove = undefined
      })
    }
    const cleanup = () => {
      window.removeEventListener('pointerdown', first, true)
      window.removeEventListener('keydown', first, true)
    }
    window.addEventListener('pointerdown', first, true)
    window.addEventListener('keydown', first, true)
    remove = cleanup
    return () => {
      cancelled = true
      remove?.()
    }
  }, [])

  return null
}
