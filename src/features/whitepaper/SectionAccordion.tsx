import { useState } from 'react'
import { Icon } from '../../ui/Icon.tsx'
import type { WhitepaperSection } from './whitepaper-content.ts'

/** A section's items as an accordion: the first starts open, opening one closes the other, and the open one can be closed. */
export function SectionAccordion({ section }: { section: WhitepaperSection }) {
  const [openIndex, setOpenIndex] = useState<number | null>(0)
  return (
    <div className="flex flex-col gap-3">
      {section.items.map((item, i) => {
        const open = openIndex === i
        const buttonId = `wp-${section.key}-item-${i}`
        const panelId = `${buttonId}-panel`
        return (
          <div key={item.title} className={`panel overflow-hidden ${open ? 'border-primary/60' : ''}`}>
            <h3 className="m-0">
              <button
                type="button"
                id={buttonId}
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => setOpenIndex(open ? null : i)}
                className={
                  'flex w-full items-center justify-between gap-3 px-5 py-4 text-left text-base font-semibold ' +
                  'text-fg hover:text-primary'
                }
              >
                <span lang="zh">{item.title}</span>
                <Icon name="chevron" className={`shrink-0 text-primary transition-transform ${open ? 'rotate-180' : ''}`} />
              </button>
            </h3>
            <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!open} className="px-5 pb-5">
              <p lang="zh" className="leading-8 text-fg/85">
                {item.text}
              </p>
            </div>
          </div>
        )
      })}
    </div>
  )
}
