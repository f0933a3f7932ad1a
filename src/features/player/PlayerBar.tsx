import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react'
import { Link } from 'react-router-dom'
import type { Song } from '../../lib/catalogue/song.ts'
import { formatTime } from '../../lib/time-format.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { Icon } from '../../ui/Icon.tsx'
import { Slot } from '../../ui/slots.tsx'
import { useIsNarrow } from '../../ui/useIsNarrow.ts'
import { LikeButton } from './LikeButton.tsx'
import { PlayerGlobals } from './PlayerGlobals.tsx'
import { PlayerSheet } from './PlayerSheet.tsx'
import { QueueList } from './QueueList.tsx'
import { RewardPop } from './RewardPop.tsx'
import { ListenEarnStatus, ListenStandingLine } from './ListenEarnStatus.tsx'
import { ResumeAfterReload } from './ResumeAfterReload.tsx'
import { SeekBar } from './SeekBar.tsx'
import { TransportControls } from './TransportControls.tsx'
import { VolumeControl } from './VolumeControl.tsx'

/** Narrower than this (its own width: the sidebar takes its share), the bar is the compact row and the rest is in the sheet. */
export const COMPACT_BAR_PX = 720

/** The bar's height, on the document: what floats at the bottom (Still listening?) sits above it. */
export const BAR_ROOM_VAR = '--player-bar-room'

/** The bar's own width (null before the first measure), and its height published as BAR_ROOM_VAR. */
function useBarSize(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const root = document.documentElement
    const observer = new ResizeObserver(() => {
      root.style.setProperty(BAR_ROOM_VAR, `${el.offsetHeight}px`)
      setWidth(el.offsetWidth)
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
      root.style.removeProperty(BAR_ROOM_VAR)
    }
  }, [ref])
  return width
}

function Cover({ song, size }: { song: Song | null; size: string }) {
  return song ? (
    <img src={song.image} alt="" className={`${size} shrink-0 rounded-md border border-line object-cover`} />
  ) : (
    <div className={`${size} flex shrink-0 items-center justify-center rounded-md border border-line text-muted`}>
      <Icon name="music" size={18} />
    </div>
  )
}

/** Title (a link to Now Playing) and artist; with nothing playing, where to start. */
function TrackInfo({ song }: { song: Song | null }) {
  return (
    <div className="min-w-0 flex-1">
      {song ? (
        <Link
          to="/now-playing"
          title="Open Now Playing"
          className="block truncate text-sm font-semibold hover:underline"
          data-testid="bar-title"
        >
          {song.title}
        </Link>
      ) : (
        <p className="truncate text-sm font-semibold" data-testid="bar-title">
          Nothing playing
        </p>
      )}
      <p className="truncate text-xs text-muted" data-testid="bar-artist">
        {song?.artist ?? 'Pick a track in your Library'}
      </p>
    </div>
  )
}

function PlayPause() {
  const isPlaying = usePlayerStore((s) => s.isPlaying)
  const hasQueue = usePlayerStore((s) => s.queue.length > 0)
  return (
    <button
      type="button"
      onClick={() => usePlayerStore.getState().togglePlay()}
      disabled={!hasQueue}
      aria-label={isPlaying ? 'Pause' : 'Play'}
      className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary text-bg neon-box disabled:opacity-40"
    >
      <Icon name={isPlaying ? 'pause' : 'play'} size={18} />
    </button>
  )
}

/** The compact bar's thin progress line along its top edge (seeking is in the sheet). */
function ProgressLine() {
  const position = usePlayerStore((s) => s.position)
  const duration = usePlayerStore((s) => s.duration)
  const share = duration > 0 ? Math.min(1, Math.max(0, position / duration)) : 0
  return (
    <div
      role="progressbar"
      aria-label="Track progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(share * 100)}
      aria-valuetext={`${formatTime(position)} of ${formatTime(duration)}`}
      className="absolute inset-x-0 top-0 h-0.5 bg-line"
    >
      <div className="h-full bg-primary" style={{ width: `${share * 100}%` }} />
    </div>
  )
}

/** The queue, opened above the bar's right end; Escape closes it and gives focus back to its button. */
function QueuePanel({ id, onClose, toggle }: { id: string; onClose: () => void; toggle: RefObject<HTMLButtonElement | null> }) {
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      const inside = panel.current?.contains(document.activeElement) || document.activeElement === toggle.current
      if (!inside) return
      e.preventDefault()
      onClose()
      toggle.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose, toggle])
  return (
    <div
      ref={panel}
      id={id}
      data-testid="queue-panel"
      className={
        'absolute right-2 bottom-full mb-2 max-h-[min(28rem,60vh)] w-[min(24rem,calc(100%-1rem))] overflow-y-auto ' + 'rounded-lg shadow-lg'
      }
    >
      <QueueList />
    </div>
  )
}

/**
 * The player bar: at the bottom of every /app page and the public song and profile pages, as every
 * major player has it. It sits at the end of the page's column, sticky to the viewport's bottom, so
 * it takes its own room in the flow: scrolled to the end, nothing of the page is under it, at any
 * width, and it never spans the sidebar. Wide: cover, title (to Now Playing), like; transport and
 * seek; CUBE Radio, the queue and volume. Compact (a phone, or a narrow window beside the open
 * sidebar): cover, title, like, play/pause and a progress line; Expand opens the sheet with the rest.
 */
export function PlayerBar() {
  const song = usePlayerStore((s) => s.currentSong)
  const narrow = useIsNarrow()
  const bar = useRef<HTMLElement>(null)
  const width = useBarSize(bar)
  const compact = narrow || (width !== null && width < COMPACT_BAR_PX)
  const [queueOpen, setQueueOpen] = useState(false)
  const [sheetOpen, setSheetOpen] = useState(false)
  const closeQueue = useCallback(() => setQueueOpen(false), [])
  const closeSheet = useCallback(() => setSheetOpen(false), [])
  const queueToggle = useRef<HTMLButtonElement>(null)
  const queueId = useId()
  const queueLength = usePlayerStore((s) => s.queue.length)

  return (
    <>
      <section
        ref={bar}
        aria-label="Player"
        data-testid="player-bar"
        data-layout={compact ? 'compact' : 'full'}
        className="sticky bottom-0 z-30 border-t border-line bg-panel/95 pb-[env(safe-area-inset-bottom,0px)] backdrop-blur"
      >
        <PlayerGlobals />
        <RewardPop className="absolute bottom-full left-1/2 mb-2 -translate-x-1/2" />
        <ListenEarnStatus />
        {compact ? (
          <>
            <ProgressLine />
            <div className="px-3 pt-2 empty:hidden [&>div]:mb-0">
              <Slot name="StationMiniControls" />
            </div>
            <div className="flex items-center gap-2 px-3 py-2">
              <Cover song={song} size="h-10 w-10" />
              <TrackInfo song={song} />
              {song && <LikeButton song={song} label="Like" />}
              <PlayPause />
              <button
                type="button"
                onClick={() => setSheetOpen(true)}
                aria-label="Expand player"
                aria-haspopup="dialog"
                aria-expanded={sheetOpen}
                className="shrink-0 rounded-full p-2 text-muted hover:text-fg"
              >
                <Icon name="chevron" size={18} className="rotate-180" />
              </button>
            </div>
            <ListenStandingLine className="-mt-1 px-3 pb-1.5" />
            <ResumeAfterReload className="px-3 pb-2" />
          </>
        ) : (
          <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1.5fr)_minmax(0,1fr)] items-center gap-4 px-4 py-2">
            <div className="flex min-w-0 items-center gap-3">
              <Cover song={song} size="h-12 w-12" />
              <TrackInfo song={song} />
              {song && <LikeButton song={song} label="Like" />}
            </div>
            <div className="flex min-w-0 flex-col gap-1">
              <TransportControls />
              <SeekBar />
              <ListenStandingLine className="text-center" />
              <ResumeAfterReload className="justify-center" />
            </div>
            <div className="flex min-w-0 items-center justify-end gap-2">
              <div className="min-w-0 max-w-60 flex-1 [&>div]:mb-0">
                <Slot name="StationMiniControls" />
              </div>
              <button
                ref={queueToggle}
                type="button"
                onClick={() => setQueueOpen((o) => !o)}
                aria-label={`Queue (${queueLength})`}
                aria-expanded={queueOpen}
                aria-controls={queueOpen ? queueId : undefined}
                title="Queue"
                className={`shrink-0 rounded-full p-2 ${queueOpen ? 'text-primary' : 'text-muted hover:text-fg'}`}
              >
                <Icon name="list" size={18} />
              </button>
              <div className="w-32 shrink-0">
                <VolumeControl />
              </div>
            </div>
          </div>
        )}
        {!compact && queueOpen && <QueuePanel id={queueId} onClose={closeQueue} toggle={queueToggle} />}
      </section>
      {compact && sheetOpen && <PlayerSheet onClose={closeSheet} />}
    </>
  )
}
