import { useId, useState } from 'react'
import { Link } from 'react-router-dom'
import { Icon } from '../../ui/Icon.tsx'
import { WHITEPAPER_SECTIONS } from './whitepaper-content.ts'
import { filterSections } from './section-lookup.ts'

/** Section links with a search box that narrows them by title; used in the sticky column and the mobile drawer. */
export function TableOfContents({ currentKey, onNavigate }: { currentKey: string; onNavigate?: () => void }) {
  const [query, setQuery] = useState('')
  const searchId = useId()
  const sections = filterSections(query)
  return (
    <nav aria-label="Whitepaper contents" className="flex flex-col gap-3">
      <label htmlFor={searchId} className="text-xs font-semibold uppercase tracking-widest text-muted">
        搜索章节 · Search sections
      </label>
      <div className="relative">
        <Icon name="search" size={16} className="pointer-events-none absolute left-2.5 top-1/2 -translate-y-1/2 text-muted" />
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="例如：代币 / token"
          className="w-full rounded-md border border-line bg-bg py-2 pl-8 pr-2 text-sm text-fg placeholder:text-muted focus:border-primary"
        />
      </div>
      <p className="sr-only" aria-live="polite">
        {sections.length} / {WHITEPAPER_SECTIONS.length} sections shown
      </p>
      {sections.length === 0 ? (
        <p className="text-sm text-muted">没有匹配的章节 · No matching sections</p>
      ) : (
        <ol className="flex flex-col gap-1">
          {sections.map((s) => {
            const current = s.key === currentKey
            return (
              <li key={s.key}>
                <Link
                  to={`/app/whitepaper/${s.key}`}
                  onClick={onNavigate}
                  aria-current={current ? 'page' : undefined}
                  className={
                    `block rounded-md px-3 py-2 text-sm ` +
                    `${current ? 'bg-primary/15 font-semibold text-primary' : 'text-fg/85 hover:bg-line/40 hover:text-fg'}`
                  }
                >
                  <span lang="zh">{s.title}</span>
                  <span className="block text-xs text-muted">{s.english}</span>
                </Link>
              </li>
            )
          })}
        </ol>
      )}
    </nav>
  )
}
