import { useId } from 'react'

// The small building blocks every Settings tab shares.

export { ErrorLine as FieldError, FormPanel as SettingsSection, buttonClass, inputClass, quietButtonClass } from '../../ui/form-ui.tsx'

/** An on/off switch with its label and an optional line under it. */
export function Toggle({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string
  hint?: string
  checked: boolean
  disabled?: boolean
  onChange: (on: boolean) => void
}) {
  const id = useId()
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <label htmlFor={id} className="text-sm text-fg">
          {label}
        </label>
        {hint && <p className="text-xs text-muted">{hint}</p>}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={
          `relative h-6 w-11 shrink-0 rounded-full border border-line transition-colors disabled:opacity-50 ` +
          `${checked ? 'bg-primary' : 'bg-bg'}`
        }
      >
        <span
          aria-hidden
          className={`absolute top-0.5 h-4 w-4 rounded-full bg-fg transition-transform ${checked ? 'translate-x-6' : 'translate-x-1'}`}
        />
      </button>
    </div>
  )
}
