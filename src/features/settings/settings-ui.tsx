import { useId } from 'react'
import { Switch } from '../../ui/Switch.tsx'

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
      <Switch id={id} checked={checked} disabled={disabled} onChange={onChange} />
    </div>
  )
}
