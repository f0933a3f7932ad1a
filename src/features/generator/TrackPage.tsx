import { useEffect, useRef, useState } from 'react'
import { Link, Navigate, useParams } from 'react-router-dom'
import { GENRE_LABELS, INSTRUMENT_PARTS, MOOD_LABELS } from '../../engine/composer.ts'
import { GeneratedTrackPanel } from './GeneratedTrackPanel.tsx'
import { GenerationProgress } from './GenerationProgress.tsx'
import { recipeFromShareId, recipeRequest, type TrackRecipe } from './share-link.ts'
import { useCatalogueSlug } from './useCatalogueSlug.ts'
import { useGeneration } from './useGeneration.ts'
import { usePreparedTrack } from './usePreparedTrack.ts'

/**
 * /track/<id>: a shared generated track, or a catalogue song by its id (a published song's
 * `pub-…` id, a built-in song's id), which forwards to its /song/{slug} page. The id carries the creator's recipe (description, mood,
 * genre); the piece is composed and rendered here, on the opener's device, and is the same piece
 * the creator heard (the generator is deterministic). A malformed id gets a clear message.
 */
export default function TrackPage() {
  const { id = '' } = useParams()
  const recipe = recipeFromShareId(id)
  return (
    <div className="cyber-grid min-h-screen bg-bg text-fg">
      <header className="mx-auto flex max-w-4xl items-center justify-between gap-4 p-4 md:px-8">
        <Link to="/" className="font-display text-xl font-black text-primary neon-text">
          CUBE Music
        </Link>
        <Link to="/app/create" className="rounded-md border border-primary px-3 py-1.5 text-sm font-semibold text-primary">
          Make your own
        </Link>
      </header>
      <main className="mx-auto max-w-4xl p-4 md:px-8">
        {recipe ? <SharedTrack key={id} recipe={recipe} /> : <CatalogueOrBroken key={id} id={id} />}
      </main>
    </div>
  )
}

/** A track id that is no recipe may be a song of the catalogue; otherwise the link is broken. */
function CatalogueOrBroken({ id }: { id: string }) {
  const slug = useCatalogueSlug(id)
  if (slug === undefined)
    return (
      <p className="text-muted" role="status">
        Looking up the track…
      </p>
    )
  if (slug) return <Navigate to={`/song/${slug}`} replace />
  return <BrokenLink />
}

function BrokenLink() {
  useEffect(() => {
    document.title = 'Broken track link · CUBE Music'
  }, [])
  return (
    <section className="panel flex flex-col gap-3 p-6" aria-labelledby="broken-heading">
      <h1 id="broken-heading" className="text-2xl font-bold text-secondary">
        This track link is broken
      </h1>
      <p className="text-muted">
        The link is incomplete or was changed, so the track it pointed to cannot be recreated. Ask for the link again, or make a track of
        your own.
      </p>
      <div className="flex gap-3">
        <Link to="/app/create" className="rounded-md bg-primary px-4 py-2 font-semibold text-bg">
          Open the AI Generator
        </Link>
        <Link to="/" className="rounded-md border border-primary px-4 py-2 font-semibold text-primary">
          Back to home
        </Link>
      </div>
    </section>
  )
}

function SharedTrack({ recipe }: { recipe: TrackRecipe }) {
  const gen = useGeneration()
  const track = usePreparedTrack(gen.phase === 'ready' ? gen.score : null, gen.phase === 'ready' ? gen.buffer : null)
  const started = useRef(false)
  const [stopped, setStopped] = useState(false)
  const { generate } = gen
  const cancel = () => {
    setStopped(true)
    gen.cancel()
  }

  // Once per page: React's development double effects must not start a second generation.
  useEffect(() => {
    if (started.current) return
    started.current = true
    generate(recipeRequest(recipe))
  }, [generate, recipe])

  useEffect(() => {
    document.title = `${track ? track.title : 'Shared track'} · CUBE Music`
  }, [track])

  const label = [
    MOOD_LABELS[recipe.mood],
    GENRE_LABELS[recipe.genre],
    ...(recipe.instruments ?? []).map((i) => INSTRUMENT_PARTS[i].label),
  ].join(' · ')
  return (
    <div className="flex flex-col gap-6">
      <section className="panel flex flex-col gap-2 p-6" aria-labelledby="shared-heading">
        <h1 id="shared-heading" className="font-display text-3xl font-bold text-primary neon-text">
          Shared track
        </h1>
        <blockquote className="border-l-2 border-primary pl-3 text-fg" data-testid="shared-description">
          “{recipe.description}”
        </blockquote>
        <p className="text-sm text-muted">
          {label}. Composed and rendered right here in your browser from the creator’s description, mood and genre: the same recipe always
          gives the same piece.
        </p>
      </section>
      <section className="panel flex flex-col gap-4 p-6" aria-label="Track">
        {gen.busy && <GenerationProgress phase={gen.phase as 'composing' | 'rendering'} progress={gen.progress} onCancel={cancel} />}
        {track && <GeneratedTrackPanel track={track} />}
        {gen.phase === 'ready' && !track && <p className="text-sm text-muted">Preparing playback…</p>}
        {(gen.phase === 'failed' || (gen.phase === 'idle' && stopped)) && (
          <div className="flex flex-col items-start gap-3">
            <p className="text-sm text-muted">
              {gen.phase === 'failed' ? 'The track could not be made on this device.' : 'Stopped before the track was ready.'}
            </p>
            <button
              type="button"
              onClick={() => generate(recipeRequest(recipe))}
              className="rounded-md bg-primary px-4 py-2 font-semibold text-bg"
            >
              {gen.phase === 'failed' ? 'Try again' : 'Recreate track'}
            </button>
          </div>
        )}
      </section>
    </div>
  )
}
