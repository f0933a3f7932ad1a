import { Suspense, useEffect, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { Icon, type IconName } from '../../ui/Icon.tsx'
import { LiveMixer } from './mixer/LiveMixer.tsx'
import { RestoredMixBanner } from './autosave/RestoredMixBanner.tsx'
import { PageFallback } from '../../ui/PageFallback.tsx'
import { Slot } from '../../ui/slots.tsx'

// The generator (composer worker, Tone renderer) is its own chunk: the mixer never waits for it.

type Tab = 'mixer' | 'ai' | 'remix'

const TABS: { key: Tab; label: string }[] = [
  { key: 'mixer', label: 'Live Mixer' },
  { key: 'ai', label: 'AI Generator' },
  { key: 'remix', label: 'Remix Tracks' },
]

const CARDS: { title: string; text: string; icon: IconName; to?: string; tab?: Tab }[] = [
  {
    title: 'AI Generator',
    text: 'Compose a track from a description, mood and genre, right in your browser.',
    icon: 'sparkles',
    to: '/app/create',
  },
  { title: 'Live Mixer', text: 'Mix, record and export with real-time effects on every track.', icon: 'sliders', tab: 'mixer' },
  { title: 'Remix Tracks', text: 'Burn CUBE to remix tracks from the catalogue.', icon: 'shuffle', to: '/app/remix' },
]

/** My Music Studio (/app/studio; /app/create opens the AI Generator tab). */
export default function StudioPage() {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const fromPath: Tab = pathname.replace(/\/$/, '').endsWith('/create') ? 'ai' : 'mixer'
  const [tab, setTab] = useState<Tab>(fromPath)
  const [tabPath, setTabPath] = useState<Tab>(fromPath)
  // The address changed (/app/create ↔ /app/studio): its tab is shown.
  if (tabPath !== fromPath) {
    setTabPath(fromPath)
    setTab(fromPath)
  }
  useEffect(() => {
    document.title = 'My Music Studio · CUBE Music'
  }, [])

  const choose = (t: Tab) => {
    setTab(t)
    // Keep the address meaningful: the AI tab is /app/create, the others /app/studio.
    if (t === 'ai' && fromPath !== 'ai') navigate('/app/create')
    if (t !== 'ai' && fromPath === 'ai') navigate('/app/studio')
  }

  return (
    <section className="mx-auto max-w-7xl p-4 sm:p-6">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">My Music Studio</h1>
      <RestoredMixBanner />
      <div className="mt-4 grid gap-3 sm:grid-cols-3">
        {CARDS.map((c) => {
          const body = (
            <>
              <Icon name={c.icon} size={22} className="text-primary" />
              <h2 className="mt-2 font-display font-bold">{c.title}</h2>
              <p className="mt-1 text-sm text-muted">{c.text}</p>
            </>
          )
          return c.to ? (
            <Link key={c.title} to={c.to} className="panel block p-4 transition hover:border-primary hover:neon-box">
              {body}
            </Link>
          ) : (
            <button
              key={c.title}
              type="button"
              onClick={() => choose(c.tab!)}
              className="panel block p-4 text-left transition hover:border-primary hover:neon-box"
            >
              {body}
            </button>
          )
        })}
      </div>

      <div role="tablist" aria-label="Studio" className="mt-6 flex gap-1 border-b border-line">
        {TABS.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`studio-tab-${t.key}`}
            aria-selected={tab === t.key}
            aria-controls={`studio-panel-${t.key}`}
            data-value={t.key}
            onClick={() => choose(t.key)}
            className={
              `-mb-px border-b-2 px-4 py-2 text-sm font-semibold ` +
              `${tab === t.key ? 'border-primary text-primary' : 'border-transparent text-muted hover:text-fg'}`
            }
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`studio-panel-${tab}`} aria-labelledby={`studio-tab-${tab}`} className="mt-4">
        {tab === 'mixer' && <LiveMixer />}
        {tab === 'ai' && (
          <Suspense fallback={<PageFallback />}>
            <Slot name="AiGenerator" />
          </Suspense>
        )}
        {tab === 'remix' && (
          <Link to="/app/remix" className="panel flex items-center gap-4 p-6 hover:border-primary hover:neon-box">
            <Icon name="shuffle" size={28} className="text-secondary" />
            <div>
              <h2 className="font-display text-xl font-bold">Remix Tracks</h2>
              <p className="text-sm text-muted">
                Open the Remix Studio: pick a track, shape it with effects and samples, and burn 50 CUBE to create your remix.
              </p>
            </div>
          </Link>
        )}
      </div>
    </section>
  )
}
