import { useRef, type KeyboardEvent } from 'react'

export interface TabItem<K extends string> {
  key: K
  label: string
}

/**
 * A row of ARIA tabs (arrow keys, Home and End move between them); the caller renders the panel with
 * id `${idPrefix}-panel-${key}` and aria-labelledby `${idPrefix}-tab-${key}`.
 */
export function SimpleTabs<K extends string>({
  tabs,
  value,
  onChange,
  label,
  idPrefix,
}: {
  tabs: readonly TabItem<K>[]
  value: K
  onChange: (key: K) => void
  label: string
  idPrefix: string
}) {
  const refs = useRef(new Map<K, HTMLButtonElement>())
  const onKey = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.key === value)
    const at =
      e.key === 'ArrowRight'
        ? (i + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (i + tabs.length - 1) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1
    if (at < 0) return
    e.preventDefault()
    const next = tabs[at]!
    onChange(next.key)
    refs.current.get(next.key)?.focus()
  }
  return (
    <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 rounded-md bg-bg p-1 text-sm">
      {tabs.map((t) => (
        <button
          key={t.key}
          ref={(el) => {
            if (el) refs.current.set(t.key, el)
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t.key}`}
          aria-selected={value === t.key}
          aria-controls={`${idPrefix}-panel-${t.key}`}
          tabIndex={value === t.key ? 0 : -1}
          onClick={() => onChange(t.key)}
          onKeyDown={onKey}
          className={`rounded px-3 py-1.5 font-semibold ${value === t.key ? 'bg-primary/20 text-primary' : 'text-muted hover:text-fg'}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  )
}
