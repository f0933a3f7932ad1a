import { useId, type ReactNode } from 'react'

// The small building blocks every Settings tab shares.

export const inputClass = 'w-full rounded-md border border-line bg-bg px-3 py-2 text-fg placeholder:text-muted focus:border-primary focus:outline-none'
export const buttonClass = 'rounded-md bg-primary px-4 py-2 font-semibold text-bg hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50'
export const quietButtonClass = 'rounded-md border border-line px-4 py-2 text-fg/90 hover:border-primary disabled:opacity-50'

export function SettingsSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId()
  return (
    <section className="panel space-y-4 p-5" aria-labelledby={id}>
      <div>
        <h2 id={id} className="font-display text-lg font-bold text-primary">{title}</h2>
        {description && <p className="text-sm text-muted">{description}</p>}
      </div>
      {children}
    </section>
  )
}

export function FieldError({ message, id }: { message: string | null; id?: string }) {
  if (!message) return null
  return (
    <p id={id} role="alert" className="rounded-md border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm text-red-400">
      {message}
    </p>
  )
}

/** An on/off switch with its label and an optional line under it. */
export function Toggle({ label, hint, checked, disabled, onChange }: { label: string; hint?: string; checked: boolean; disabled?: boolean; onChange: (on: boolean) => void }) {
  const id = useId()
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <label htmlFor={id} className="text-sm text-fg">{label}</label>
        {hint && <p className="text-xs text-muted">{hint}</p>}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={`relative h-6 w-11 shrink-0 rounded-full border border-line transition-colors disabled:opacity-50 ${checked ? 'bg-primary' : 'bg-bg'}`}
      >
        <span aria-hidden className={`absolute top-0.5 h-4 w-4 rounded-full bg-fg transition-transform ${checked ? 'translate-x-6' : 'translate-x-1'}`} />
      </button>
    </div>
  )
}
