import { useId, type ReactNode } from 'react'

// Form building blocks the account and admin pages share: one look for inputs, buttons, titled
// panels and error lines.

export const inputClass =
  'w-full rounded-md border border-line bg-bg px-3 py-2 text-fg placeholder:text-muted focus:border-primary focus:outline-none'
export const buttonClass =
  'rounded-md bg-primary px-4 py-2 font-semibold text-bg hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50'
export const quietButtonClass = 'rounded-md border border-line px-3 py-1.5 text-sm text-fg/90 hover:border-primary disabled:opacity-50'

/** A titled panel (its heading labels the section). */
export function FormPanel({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId()
  return (
    <section className="panel space-y-4 p-5" aria-labelledby={id}>
      <div>
        <h2 id={id} className="font-display text-lg font-bold text-primary">
          {title}
        </h2>
        {description && <p className="text-sm text-muted">{description}</p>}
      </div>
      {children}
    </section>
  )
}

export function ErrorLine({ message, id }: { message: string | null; id?: string }) {
  if (!message) return null
  return (
    <p id={id} role="alert" className="rounded-md border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm text-red-400">
      {message}
    </p>
  )
}
