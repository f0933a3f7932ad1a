import { useId, useState, type ReactNode } from 'react'

/** Accessible tabs (tablist / tab / tabpanel with arrow-key-free click selection). */
export function Tabs({
  label,
  tabs,
  initial,
  testId,
}: {
  label: string
  tabs: { id: string; title: string; content: ReactNode }[]
  initial?: string
  testId: string
}) {
  const [active, setActive] = useState(initial ?? tabs[0]!.id)
  const base = useId()
  const current = tabs.find((t) => t.id === active) ?? tabs[0]!
  return (
    <div data-testid={testId}>
      <div role="tablist" aria-label={label} className="mb-3 flex gap-1 rounded-lg border border-line bg-bg/60 p-1">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${base}-${t.id}-tab`}
            aria-controls={`${base}-${t.id}-panel`}
            aria-selected={t.id === current.id}
            onClick={() => setActive(t.id)}
            className={
              `flex-1 rounded-md px-3 py-1.5 text-sm font-semibold ` +
              `${t.id === current.id ? 'bg-primary text-bg' : 'text-fg/80 hover:bg-line/40'}`
            }
          >
            {t.title}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${current.id}-panel`} aria-labelledby={`${base}-${current.id}-tab`}>
        {current.content}
      </div>
    </div>
  )
}
