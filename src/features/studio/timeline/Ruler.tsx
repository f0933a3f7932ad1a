import { gridSeconds } from '../../../engine/arrangement/clip-edits.ts'
import { useTimelineStore } from './timeline-store.ts'
import { formatTime } from '../mixer/TrackRow.tsx'

/** Seconds between time labels: the first of these that leaves at least 56 px between labels. */
const SECOND_STEPS = [0.5, 1, 2, 5, 10, 15, 30, 60, 120]

/**
 * Bars and beats on top (4/4 at the project tempo), seconds below; clicking seeks. Beat ticks are a
 * repeating background, so a long project costs one element per label, not per tick.
 */
export function Ruler({ length, zoom, bpm, onSeek }: { length: number; zoom: number; bpm: number; onSeek: (seconds: number) => void }) {
  const bar = gridSeconds('bar', bpm)
  const beatPx = gridSeconds('beat', bpm) * zoom
  // Label every bar, or every 2nd, 4th… when bars get narrow.
  const barEvery = [1, 2, 4, 8, 16, 32].find((n) => n * bar * zoom >= 32) ?? 64
  const secondEvery = SECOND_STEPS.find((s) => s * zoom >= 56) ?? 300
  const bars = Math.ceil(length / bar)
  const seconds = Math.ceil(length / secondEvery)
  const loop = useTimelineStore((st) => st.loop)
  return (
    <div
      className="relative h-10 cursor-pointer select-none border-b border-line text-[10px] text-muted"
      data-testid="timeline-ruler"
      // Pointer seeking; from the keyboard the Mix position slider seeks.
      onPointerDown={(e) => {
        const r = e.currentTarget.getBoundingClientRect()
        onSeek(Math.max(0, (e.clientX - r.left) / zoom))
      }}
    >
      <div
        aria-hidden
        className="absolute inset-x-0 top-0 h-5"
        style={{
          backgroundImage: 'linear-gradient(to right, var(--theme-line) 1px, transparent 1px)',
          backgroundSize: `${beatPx}px 40%`,
          backgroundRepeat: 'repeat-x',
          backgroundPosition: 'left bottom',
        }}
      />
      {loop.enabled && (
        <div
          aria-hidden
          data-testid="loop-band"
          className="pointer-events-none absolute inset-y-0 border-x-2 border-accent bg-accent/15"
          style={{ left: (loop.fromBar - 1) * bar * zoom, width: (loop.toBar - loop.fromBar) * bar * zoom }}
        />
      )}
      {Array.from({ length: Math.floor(bars / barEvery) + 1 }, (_, i) => i * barEvery).map((b) => (
        <span key={`b${b}`} className="absolute top-0 border-l border-fg/40 pl-0.5 font-mono text-fg/80" style={{ left: b * bar * zoom }}>
          {b + 1}
        </span>
      ))}
      {Array.from({ length: seconds + 1 }, (_, i) => i * secondEvery).map((s) => (
        <span key={`s${s}`} className="absolute bottom-0 border-l border-line pl-0.5 font-mono" style={{ left: s * zoom }}>
          {formatTime(s)}
        </span>
      ))}
    </div>
  )
}
