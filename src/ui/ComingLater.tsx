import { useEffect } from 'react'

/** A route whose page belongs to a later release: its title and one honest line, nothing fake. */
export function ComingLater({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} · CUBE Music`
  }, [title])
  return (
    <section className="mx-auto max-w-3xl p-6">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">{title}</h1>
      <p className="mt-3 text-muted">{title} is coming in a later release.</p>
    </section>
  )
}
