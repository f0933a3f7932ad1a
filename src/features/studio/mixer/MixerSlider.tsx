import * as Slider from '@radix-ui/react-slider'
import { useRef } from 'react'
import type { GestureId } from '../../../domain/studio/mixer-store.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import type { ControlRef } from '../../../domain/studio/presence.ts'
import { usePeerTouching } from '../presence/peer-hooks.ts'

let gestures = 0

/**
 * An integer-step mixer control: Radix slider (arrow keys, Page Up/Down, Home/End) with a label and read-out.
 * A pointer drag reports one gesture id for all its changes, so it undoes in one step; keyboard
 * changes carry none and the store merges a burst on the same control by time.
 * In a live session (`control` given) the others see a drag while it happens: the control shows
 * the colour and name of the creator moving it.
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
  control,
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
  /** Which control this is, for the live session's presence. */
  control?: ControlRef
}) {
  const gesture = useRef<GestureId | undefined>(undefined)
  const remote = usePeerTouching(control)
  const touch = () => {
    if (!control) return
    const { share } = useLiveSessionStore.getState()
    share({ touching: control })
    const release = () => {
      window.removeEventListener('pointerup', release)
      window.removeEventListener('pointercancel', release)
      share({ touching: null })
    }
    window.addEventListener('pointerup', release)
    window.addEventListener('pointercancel', release)
  }
  return (
    <div
      className={`flex min-w-0 items-center gap-2 text-xs ${disabled ? 'opacity-50' : ''}`}
      data-testid={testId}
      data-touched-by={remote?.name}
    >
      <span
        className={`w-20 shrink-0 truncate ${remote ? 'font-semibold' : 'text-muted'}`}
        style={remote ? { color: remote.colour } : undefined}
        title={remote ? `${remote.name} is moving this` : undefined}
        data-slider-part="label"
      >
        {remote ? remote.name : label}
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
          touch()
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
          aria-valuetext={remote ? `${format(value)}, ${remote.name} is moving it` : format(value)}
          style={remote ? { borderColor: remote.colour, boxShadow: `0 0 0 3px ${remote.colour}` } : undefined}
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
