import { useId, useState, type ReactNode } from 'react'
import { SimpleTabs } from '../../ui/SimpleTabs.tsx'

/** The shared tab strip (SimpleTabs: click, arrow keys, Home, End) over the chosen tab's panel. */
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
      <div className="mb-3">
        <SimpleTabs
          tabs={tabs.map((t) => ({ key: t.id, label: t.title }))}
          value={current.id}
          onChange={setActive}
          label={label}
          idPrefix={base}
        />
      </div>
      <div role="tabpanel" id={`${base}-panel-${current.id}`} aria-labelledby={`${base}-tab-${current.id}`}>
        {current.content}
      </div>
    </div>
  )
}
