import { useCallback, useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { Icon } from '../../ui/Icon.tsx'
import { SLIDES } from './slides.tsx'

const LAST = SLIDES.length - 1

export default function PitchdeckPage() {
  const [index, setIndex] = useState(0)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const changed = useRef(false)
  const goTo = useCallback((i: number) => {
    changed.current = true
    setIndex(Math.min(LAST, Math.max(0, i)))
  }, [])
  const slide = SLIDES[index]!

  useEffect(() => {
    document.title = 'Pitch Deck · CUBE Music'
  }, [])

  // Arrow keys page through the deck, unless a modifier is held (browser shortcuts) or focus is in a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return
      const target = e.target as HTMLElement | null
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return
      if (e.key === 'ArrowRight') setIndex((i) => Math.min(LAST, i + 1))
      else if (e.key === 'ArrowLeft') setIndex((i) => Math.max(0, i - 1))
      else return
      changed.current = true
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // After a jump from inside a slide (Invest Now), focus would be lost with the removed button: move it to the new slide.
  useEffect(() => {
    if (!changed.current) return
    window.scrollTo({ top: 0 })
    if (!document.activeElement || document.activeElement === document.body) headingRef.current?.focus({ preventScroll: true })
  }, [index])

  const Body = slide.Body
  return (
    <div className="cyber-grid flex min-h-screen flex-col bg-bg text-fg">
      <header className="flex items-center justify-between gap-4 border-b border-line bg-panel/80 px-4 py-3 md:px-8">
        <h1 className="font-display text-sm font-bold tracking-widest text-primary">
          CUBE<span className="text-secondary">.</span>MUSIC <span className="text-muted">· Pitch Deck</span>
        </h1>
        <Link to="/" className="flex items-center gap-1 text-sm text-muted hover:text-fg">
          <Icon name="close" size={16} /> Exit deck
        </Link>
      </header>

      <main className="flex flex-1 items-center justify-center px-4 py-8 md:px-10">
        <section
          key={index}
          aria-roledescription="slide"
          aria-labelledby="deck-slide-title"
          data-slide={index + 1}
          className="w-full min-w-0 max-w-6xl"
        >
          <h2
            id="deck-slide-title"
            ref={headingRef}
            tabIndex={-1}
            className={
              index === 0
                ? 'sr-only'
                : `mb-8 font-display text-3xl font-black tracking-wide text-primary neon-text focus:outline-none ` +
                  `md:text-5xl ${index === LAST ? 'text-center' : ''}`
            }
          >
            {slide.title}
          </h2>
          <Body goTo={goTo} />
        </section>
      </main>

      <footer className="flex flex-wrap items-center justify-between gap-4 border-t border-line bg-panel/80 px-4 py-3 md:px-8">
        <button
          type="button"
          onClick={() => goTo(index - 1)}
          disabled={index === 0}
          className={
            'flex items-center gap-2 rounded-md border border-line px-4 py-2 font-semibold hover:border-primary ' +
            'hover:text-primary disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:border-line ' +
            'disabled:hover:text-fg'
          }
        >
          <Icon name="prev" size={16} /> Previous
        </button>
        <div className="flex items-center gap-4">
          <ul className="flex items-center gap-1" aria-label="Slides">
            {SLIDES.map((s, i) => (
              <li key={s.title}>
                <button
                  type="button"
                  onClick={() => goTo(i)}
                  aria-label={`Go to slide ${i + 1}`}
                  aria-current={i === index ? 'step' : undefined}
                  title={s.title}
                  className="group flex h-6 items-center justify-center px-0.5"
                >
                  <span
                    aria-hidden="true"
                    className={
                      `block h-3 rounded-full transition-all ` +
                      `${i === index ? 'w-8 bg-primary' : 'w-3 bg-muted/50 group-hover:bg-muted'}`
                    }
                  />
                </button>
              </li>
            ))}
          </ul>
          <span className="font-display text-sm tabular-nums text-muted" data-testid="slide-counter">
            {index + 1} / {SLIDES.length}
          </span>
          <span className="sr-only" aria-live="polite">
            Slide {index + 1} of {SLIDES.length}: {slide.title}
          </span>
        </div>
        <button
          type="button"
          onClick={() => goTo(index + 1)}
          disabled={index === LAST}
          className={
            'flex items-center gap-2 rounded-md bg-primary px-4 py-2 font-bold text-bg hover:opacity-90 ' +
            'disabled:cursor-not-allowed disabled:opacity-40'
          }
        >
          Next <Icon name="next" size={16} />
        </button>
      </footer>
    </div>
  )
}
