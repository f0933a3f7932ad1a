import { useId, type ReactNode } from 'react'

export { ErrorLine, FormPanel as Panel, buttonClass, inputClass, quietButtonClass } from '../../ui/form-ui.tsx'

/** A labelled input with its own error line. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string
  hint?: string
  error?: string
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode
}) {
  const id = useId()
  const describe = useId()
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm text-fg/90">
        {label}
      </label>
      {children({ id, 'aria-describedby': hint || error ? describe : undefined, 'aria-invalid': error ? true : undefined })}
      {(hint || error) && (
        <p id={describe} className={`text-xs ${error ? 'text-red-400' : 'text-muted'}`} role={error ? 'alert' : undefined}>
          {error ?? hint}
        </p>
      )}
    </div>
  )
}
