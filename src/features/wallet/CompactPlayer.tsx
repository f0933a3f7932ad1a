import { Component, type ReactNode } from 'react'
import { usePlayerStore } from '../../domain/playback/player-store.ts'

/** The wallet page's sticky compact player: what plays now, play/pause (the full controls are in the player bar). */
function CompactPlayerBar() {
  const song = usePlayerStore((s) => s.currentSong)
  const playing = usePlayerStore((s) => s.isPlaying)
  const toggle = usePlayerStore((s) => s.togglePlay)
  return (
    <div
      className="sticky top-0 z-10 flex items-center gap-3 rounded-lg border border-line bg-bg/90 px-3 py-2 backdrop-blur"
      data-testid="compact-player"
    >
      <button
        type="button"
        onClick={toggle}
        disabled={!song}
        className="rounded-full bg-primary px-3 py-1 text-sm font-semibold text-bg disabled:opacity-50"
        aria-label={playing ? 'Pause' : 'Play'}
      >
        {playing ? 'Pause' : 'Play'}
      </button>
      <p className="truncate text-sm">
        {song ? `${song.title} — ${song.artist}` : 'Nothing playing: pick a track to earn while you listen'}
      </p>
    </div>
  )
}

class PlayerBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    return this.state.failed ? (
      <p role="alert" className="text-sm text-red-400">
        Music player failed to load
      </p>
    ) : (
      this.props.children
    )
  }
}

export function CompactPlayer() {
  return (
    <PlayerBoundary>
      <CompactPlayerBar />
    </PlayerBoundary>
  )
}
