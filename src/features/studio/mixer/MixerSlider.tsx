import * as Slider from '@radix-ui/react-slider'
import { useRef } from 'react'
import type { GestureId } from '../../../domain/studio/mixer-store.ts'

let gestures = 0

/**
 * An integer-step mixer control: Radix slider (arrow keys, Page Up/Down, Home/End) with a label and read-out.
 * A pointer drag reports one gesture id for all its changes, so it undoes in one step; keyboard
 * changes carry none and the store merges a burst on the same control by time.
 */
export function MixerSlider({
  label,
  ariaLabel,
  value,
  min,
  max,
  onChange,
  disabled,
  format = (v) => String(v),
  testId,
}: {
  label: string
  /** Full accessible name (e.g. 'Recording 1 Volume'); defaults to the visible label. */
  ariaLabel?: string
  value: number
  min: number
  max: number
  onChange: (value: number, gesture?: GestureId) => void
  disabled?: boolean
  format?: (v: number) => string
  testId?: string
}) {
  const gesture = useRef<GestureId | undefined>(undefined)
  return (
    <div className={`flex min-w-0 items-center gap-2 text-xs ${disabled ? 'opacity-50' : ''}`} data-testid={testId}>
      <span className="w-20 shrink-0 truncate text-muted" data-slider-part="label">
        {label}
      </span>
      <Slider.Root
        className="relative flex h-5 min-w-12 flex-1 touch-none select-none items-center"
        data-slider-part="track"
        value={[value]}
        min={min}
        max={max}
        step={1}
        disabled={disabled}
        onPointerDown={() => {
          gesture.current = `drag-${++gestures}`
        }}
        onKeyDown={() => {
          gesture.current = undefined
        }}
        onValueChange={(v) => onChange(v[0] ?? value, gesture.current)}
      >
        <Slider.Track className="relative h-1.5 flex-1 rounded-full bg-line">
          <Slider.Range className="absolute h-full rounded-full bg-primary" />
        </Slider.Track>
        <Slider.Thumb
          aria-label={ariaLabel ?? label}
          aria-valuetext={format(value)}
          className={
            'block h-4 w-4 rounded-full border-2 border-primary bg-bg shadow focus:outline-none ' +
            'focus-visible:ring-2 focus-visible:ring-accent data-[disabled]:cursor-not-allowed'
          }
        />
      </Slider.Root>
      <output className="w-10 shrink-0 text-right font-mono text-fg" aria-hidden data-slider-part="value">
        {format(value)}
      </output>
    </div>
  )
}
