import { useEffect, useRef, useState } from 'react'
import type { Song } from '../../lib/catalogue/song.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { themedWaveformStyle } from '../../ui/waveform-style.ts'
import { Slot } from '../../ui/slots.tsx'

/**
 * wavesurfer.js waveform of a song, drawn from the peaks worker's output. While the song is the
 * player's current one it is bound to the deck's media stand-in, so progress follows playback and
 * a click seeks; otherwise (a song's page) a click plays the song from there. Comments pinned to
 * moments show over it as markers (the WaveformMarkers slot) that play from their moment.
 */
export function Waveform({ song }: { song: Song }) {
  const current = usePlayerStore((s) => s.currentSong?.id === song.id)
  const container = useRef<HTMLDivElement>(null)
  // The outcome of drawing one song's audio; another song's is still loading.
  const [drawn, setDrawn] = useState<{ audioUrl: string; status: 'ready' | 'error'; error: string; duration: number } | null>(null)
  const status = drawn?.audioUrl === song.audioUrl ? drawn.status : 'loading'
  const error = drawn?.audioUrl === song.audioUrl ? drawn.error : ''

  useEffect(() => {
    let cancelled = false
    let destroy: (() => void) | undefined
    const el = container.current
    if (!el) return
    const buckets = Math.min(4000, Math.max(400, Math.round(el.clientWidth * (window.devicePixelRatio || 1))))
    void (async () => {
      try {
        const [{ default: WaveSurfer }, { getPlayerDeck }, { loadSongPeaks }] = await Promise.all([
          import('wavesurfer.js'),
          import('../../engine/player-deck.ts'),
          import('../../engine/song-peaks.ts'),
        ])
        const { peaks, duration } = await loadSongPeaks(song.audioUrl, buckets)
        if (cancelled) return
        const ws = WaveSurfer.create({
          container: el,
          ...(current ? { media: getPlayerDeck().element } : {}),
          peaks,
          duration,
          ...themedWaveformStyle(96),
          interact: true,
        })
        ws.on('interaction', (t: number) => (current ? usePlayerStore.getState().seek(t) : usePlayerStore.getState().playSongAt(song, t)))
        destroy = () => ws.destroy()
        setDrawn({ audioUrl: song.audioUrl, status: 'ready', error: '', duration })
      } catch (err) {
        if (cancelled) return
        console.error('[waveform]', err)
        setDrawn({ audioUrl: song.audioUrl, status: 'error', error: errorMessage(err), duration: 0 })
      }
    })()
    return () => {
      cancelled = true
      destroy?.()
    }
    // song: its identity is song.audioUrl; a new object for the same file must not redraw.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [song.audioUrl, current])

  return (
    <div>
      <div className="relative">
        <div
          ref={container}
          data-testid="waveform"
          data-status={status}
          className="min-h-24 w-full cursor-pointer"
          role="group"
          aria-label={`Waveform of ${song.title}; click to ${current ? 'seek' : 'play from there'}`}
        />
        {status === 'ready' && drawn && (
          <Slot
            name="WaveformMarkers"
            songId={song.id}
            duration={drawn.duration}
            onSeek={(at) => usePlayerStore.getState().playSongAt(song, at)}
          />
        )}
      </div>
      {status === 'loading' && <p className="text-sm text-muted">Drawing waveform…</p>}
      {status === 'error' && <p className="text-sm text-secondary">Waveform unavailable: {error}</p>}
    </div>
  )
}
