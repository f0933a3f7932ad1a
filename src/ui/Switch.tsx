/**
 * The app's on/off switch (role="switch"). The knob is placed from the track's left edge, since a
 * button centres its content: off sits at the left on a dark track, on at the right on the primary
 * colour, so the two states differ in position and in colour.
 */
export function Switch({
  checked,
  onChange,
  id,
  label,
  disabled,
}: {
  checked: boolean
  onChange: (on: boolean) => void
  id?: string
  /** The accessible name when no <label for> names it. */
  label?: string
  disabled?: boolean
}) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={
        `relative h-6 w-11 shrink-0 rounded-full border transition-colors disabled:opacity-50 ` +
        `${checked ? 'border-primary bg-primary' : 'border-line bg-bg'}`
      }
    >
      <span
        aria-hidden
        data-knob
        className={
          `absolute left-0.5 top-0.5 h-[18px] w-[18px] rounded-full transition-transform ` +
          `${checked ? 'translate-x-5 bg-bg' : 'translate-x-0 bg-muted'}`
        }
      />
    </button>
  )
}
