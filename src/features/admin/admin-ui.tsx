import { useId, type ReactNode } from 'react'

export const inputClass = 'w-full rounded-md border border-line bg-bg px-3 py-2 text-fg placeholder:text-muted focus:border-primary focus:outline-none'
export const buttonClass = 'rounded-md bg-primary px-4 py-2 font-semibold text-bg hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50'
export const quietButtonClass = 'rounded-md border border-line px-3 py-1.5 text-sm text-fg/90 hover:border-primary disabled:opacity-50'

export function Panel({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
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

/** A labelled input with its own error line. */
export function Field({ label, hint, error, children }: { label: string; hint?: string; error?: string; children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode }) {
  const id = useId()
  const describe = useId()
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm text-fg/90">{label}</label>
      {children({ id, 'aria-describedby': hint || error ? describe : undefined, 'aria-invalid': error ? true : undefined })}
      {(hint || error) && (
        <p id={describe} className={`text-xs ${error ? 'text-red-400' : 'text-muted'}`} role={error ? 'alert' : undefined}>{error ?? hint}</p>
      )}
    </div>
  )
}

export function ErrorLine({ message }: { message: string | null }) {
  if (!message) return null
  return <p role="alert" className="rounded-md border border-red-500/60 bg-red-500/10 px-3 py-2 text-sm text-red-400">{message}</p>
}
