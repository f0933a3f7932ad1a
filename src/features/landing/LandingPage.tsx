import { Suspense, useEffect } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { Icon, type IconName } from '../../ui/Icon.tsx'
import { Slot } from '../../ui/slots.tsx'

// The generator (xstate, composer worker; tone loads only when a render starts) is its own chunk.

const FEATURES: { title: string; icon: IconName; text: string }[] = [
  { title: 'Create', icon: 'sparkles', text: 'Compose tracks from a description, mix live in the browser and record your voice.' },
  { title: 'Listen', icon: 'headphones', text: 'Stream the catalogue with a real queue, playlists and favourites.' },
  { title: 'Earn', icon: 'cube', text: 'Every qualifying listen, comment and share earns CUBE, credited by the server.' },
]

/** Plays the catalogue's first song and opens Listen to Earn, where the next ones are a click away. */
function StartListening() {
  const navigate = useNavigate()
  const start = () => {
    const first = SAMPLE_SONGS[0]
    if (first) usePlayerStore.getState().playSong(first)
    navigate('/app/listen')
  }
  return (
    <button type="button" onClick={start} className="flex items-center gap-2 rounded-md bg-secondary px-6 py-3 font-bold text-bg neon-box">
      <Icon name="play" size={18} />
      Start Listening
    </button>
  )
}

export default function LandingPage() {
  useEffect(() => {
    document.title = 'CUBE Music · Create, listen, earn'
  }, [])
  return (
    <main className="cyber-grid min-h-screen bg-bg text-fg">
      <div className="mx-auto flex max-w-6xl flex-col items-center px-6 py-16 text-center">
        <div className="mb-6 flex h-20 w-20 items-center justify-center rounded-2xl border border-primary/60 neon-box" aria-hidden>
          <Icon name="cube" size={44} className="text-primary" />
        </div>
        <h1
          className={
            'max-w-full font-display text-4xl font-black tracking-widest break-words text-primary neon-text ' + 'sm:text-5xl md:text-7xl'
          }
        >
          CUBE<span className="text-secondary">.</span>MUSIC
        </h1>
        <p className="mt-4 max-w-2xl text-lg text-fg/80">
          The cyberpunk music studio where every listen counts: create with AI, mix live, and earn CUBE tokens.
        </p>
        <section
          aria-label="Generate a track"
          id="generator"
          className="panel neon-box mt-10 w-full max-w-2xl p-6 text-left"
          data-slot="landing-generator"
        >
          <h2 className="text-xl font-bold text-fg">Make music now</h2>
          <p className="mt-1 text-sm text-muted">
            Describe a track and it is composed and rendered right here in your browser, or jump straight into the live studio.
          </p>
          <div className="mt-4">
            {/* The fallback holds the form's height so nothing below shifts when the chunk arrives. */}
            <Suspense fallback={<p className="min-h-[182px] text-sm text-muted md:min-h-[166px]">Loading the generator…</p>}>
              <Slot name="LandingGenerator" />
            </Suspense>
          </div>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to="/app/create" className="rounded-md bg-secondary px-4 py-2 font-semibold text-bg">
              Make Live Music
            </Link>
          </div>
        </section>
        <section aria-label="Features" className="mt-12 grid w-full gap-4 md:grid-cols-3">
          {FEATURES.map((f) => (
            <article key={f.title} className="panel p-6 text-left">
              <Icon name={f.icon} size={28} className="text-accent" />
              <h2 className="mt-3 text-xl font-bold text-fg">{f.title}</h2>
              <p className="mt-1 text-sm text-muted">{f.text}</p>
            </article>
          ))}
        </section>
        <div className="mt-12 flex flex-wrap justify-center gap-4">
          <StartListening />
          <Link to="/app/home" className="rounded-md bg-primary px-6 py-3 font-bold text-bg neon-box">
            Explore the Platform
          </Link>
          <Link to="/app/whitepaper/executive_summary" className="rounded-md border border-primary px-6 py-3 font-bold text-primary">
            Read Whitepaper
          </Link>
        </div>
      </div>
    </main>
  )
}
