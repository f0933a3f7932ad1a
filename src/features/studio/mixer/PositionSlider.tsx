import * as Slider from '@radix-ui/react-slider'
import { useEffect, useState } from 'react'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { formatTime } from './TrackRow.tsx'

/** How often the thumb follows playback: smooth enough to watch, rare enough to cost nothing. */
const FOLLOW_MS = 250

/**
 * The transport's position as a keyboard-operable slider (arrows step 1 s on a long mix, 0.1 s on
 * one under a minute; Page Up/Down ten steps; Home/End), the keyboard counterpart of clicking a
 * waveform. It follows playback and seeks on change.
 */
export function PositionSlider({ timeline, onSeek }: { timeline: number; onSeek: (seconds: number) => void }) {
  const [position, setPosition] = useState(() => mixerEngine.position())
  const step = timeline > 60 ? 1 : 0.1
  const max = Math.max(step, Math.round(timeline / step) * step)

  useEffect(() => {
    const id = setInterval(() => setPosition(mixerEngine.position()), FOLLOW_MS)
    return () => clearInterval(id)
  }, [])

  const value = Math.min(max, Math.round(position / step) * step)
  return (
    <Slider.Root
      className="relative mt-3 flex h-5 w-full touch-none select-none items-center"
      value={[value]}
      min={0}
      max={max}
      step={step}
      disabled={timeline <= 0}
      onValueChange={(v) => {
        const s = v[0] ?? 0
        setPosition(s)
        onSeek(s)
      }}
    >
      <Slider.Track className="relative h-1 flex-1 rounded-full bg-line">
        <Slider.Range className="absolute h-full rounded-full bg-accent" />
      </Slider.Track>
      <Slider.Thumb
        aria-label="Mix position"
        aria-valuetext={`${formatTime(value)} of ${formatTime(timeline)}`}
        className={
          'block h-3.5 w-3.5 rounded-full border-2 border-accent bg-bg focus:outline-none focus-visible:ring-2 ' +
          'focus-visible:ring-primary data-[disabled]:cursor-not-allowed'
        }
      />
    </Slider.Root>
  )
}
