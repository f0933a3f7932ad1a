import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate, useParams } from 'react-router-dom'
import { useIsNarrow } from '../../ui/useIsNarrow.ts'
import { Icon } from '../../ui/Icon.tsx'
import { WHITEPAPER_DATE, WHITEPAPER_VERSION } from './whitepaper-content.ts'
import { neighbours, resolveSection } from './section-lookup.ts'
import { TableOfContents } from './TableOfContents.tsx'
import { TocDrawer } from './TocDrawer.tsx'
import { SectionAccordion } from './SectionAccordion.tsx'
import './whitepaper-font.css'

const DRAWER_ID = 'whitepaper-toc-drawer'

/**
 * Counts the times web fonts finished loading. Chrome keeps text it shaped while a unicode-range
 * subset was still loading as empty boxes even after the subset arrives (the current section's
 * heading, its first item, the search placeholder and Next stayed tofu); each count sets a new,
 * invisibly small letter-spacing on the page, which makes Chrome shape the text again.
 */
function useFontReshape(): number {
  const [pass, setPass] = useState(0)
  useEffect(() => {
    const fonts = document.fonts
    const timers: ReturnType<typeof setTimeout>[] = []
    // Right after the event the new faces are not always usable for layout yet: shape again
    // shortly after, and once more a little later.
    const done = () => {
      for (const ms of [50, 400]) timers.push(setTimeout(() => setPass((p) => p + 1), ms))
    }
    fonts.addEventListener('loadingdone', done)
    return () => {
      fonts.removeEventListener('loadingdone', done)
      for (const t of timers) clearTimeout(t)
    }
  }, [])
  return pass
}

export default function WhitepaperPage() {
  const { section: sectionKey } = useParams()
  const section = resolveSection(sectionKey)
  const { previous, next } = neighbours(section.key)
  const navigate = useNavigate()
  const narrow = useIsNarrow()
  const [drawerOpen, setDrawerOpen] = useState(false)
  const openerRef = useRef<HTMLButtonElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const shownKey = useRef<string | null>(null)
  const closeDrawer = useCallback(() => setDrawerOpen(false), [])
  const fontPass = useFontReshape()

  useEffect(() => {
    document.title = `${section.title} · 白皮书 Whitepaper · CUBE Music`
  }, [section.title])

  // A new section starts at the top of the page, with focus on its heading for screen readers
  // (not on the first render, where focus belongs to the page as the browser left it).
  useEffect(() => {
    if (shownKey.current !== null && shownKey.current !== section.key) {
      window.scrollTo({ top: 0, left: 0 })
      headingRef.current?.focus({ preventScroll: true })
    }
    shownKey.current = section.key
  }, [section.key])

  // The drawer exists only in the narrow layout: leaving that layout closes it.
  if (!narrow && drawerOpen) setDrawerOpen(false)

  const go = (key: string) => {
    navigate(`/app/whitepaper/${key}`)
    window.scrollTo({ top: 0, left: 0 })
  }

  const toc = <TableOfContents currentKey={section.key} onNavigate={narrow ? closeDrawer : undefined} />

  return (
    <div
      className="whitepaper-cjk mx-auto w-full max-w-6xl px-4 py-6 md:px-8 md:py-10"
      style={fontPass ? { letterSpacing: `${fontPass / 10_000}px` } : undefined}
    >
      <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-display text-3xl font-black tracking-wide text-primary neon-text md:text-4xl">
            <span lang="zh">CUBE Music 白皮书</span> <span className="text-secondary">Whitepaper</span>
          </h1>
          <p className="mt-2 text-sm text-muted">
            <span lang="zh">
              版本 {WHITEPAPER_VERSION} · {WHITEPAPER_DATE}
            </span>{' '}
            · Version {WHITEPAPER_VERSION}, July 2024 · <span lang="zh">代币 MELO（应用内称 CUBE）</span>
          </p>
        </div>
        {narrow && (
          <button
            ref={openerRef}
            type="button"
            onClick={() => setDrawerOpen(true)}
            aria-expanded={drawerOpen}
            aria-controls={DRAWER_ID}
            className="flex items-center gap-2 rounded-md border border-primary px-3 py-2 text-sm font-semibold text-primary"
          >
            <Icon name="list" size={16} /> <span lang="zh">目录</span> Contents
          </button>
        )}
      </header>

      <div className="md:grid md:grid-cols-[15rem_minmax(0,1fr)] md:gap-8 lg:grid-cols-[17rem_minmax(0,1fr)]">
        {!narrow && (
          <aside className="panel sticky top-6 self-start p-4" data-testid="whitepaper-toc">
            {toc}
          </aside>
        )}

        <article aria-labelledby="wp-section-heading" data-section={section.key}>
          <h2
            id="wp-section-heading"
            ref={headingRef}
            tabIndex={-1}
            className="mb-1 text-2xl font-bold text-fg focus:outline-none md:text-3xl"
          >
            <span lang="zh">{section.title}</span>
          </h2>
          <p className="mb-6 text-sm uppercase tracking-widest text-secondary">{section.english}</p>
          <SectionAccordion key={section.key} section={section} />

          <nav aria-label="Section navigation" className="mt-8 flex flex-wrap justify-between gap-3">
            <button
              type="button"
              disabled={!previous}
              onClick={() => previous && go(previous.key)}
              className={
                'flex items-center gap-2 rounded-md border border-line px-4 py-2 text-sm font-semibold text-fg ' +
                'hover:border-primary hover:text-primary disabled:cursor-not-allowed disabled:opacity-40 ' +
                'disabled:hover:border-line disabled:hover:text-fg'
              }
            >
              <span aria-hidden="true">←</span> Previous Section
              {previous && (
                <span lang="zh" className="text-muted">
                  · {previous.title}
                </span>
              )}
            </button>
            <button
              type="button"
              disabled={!next}
              onClick={() => next && go(next.key)}
              className={
                'flex items-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-bold text-bg ' +
                'hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-40'
              }
            >
              Next Section
              {next && <span lang="zh">· {next.title}</span>} <span aria-hidden="true">→</span>
            </button>
          </nav>
        </article>
      </div>

      {narrow && (
        <TocDrawer id={DRAWER_ID} open={drawerOpen} onClose={closeDrawer} returnFocusTo={openerRef}>
          {toc}
        </TocDrawer>
      )}
    </div>
  )
}
