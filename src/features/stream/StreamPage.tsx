import { useEffect, useState } from 'react'
import { GENRE_LABELS, GENRES, MOOD_LABELS, MOODS, type Genre, type Mood } from '../../engine/composer.ts'
import { getStation, type StationState } from '../../engine/station/station-player.ts'
import { CROSSFADE_SECONDS, SLOT_SECONDS } from '../../engine/station/programme.ts'
import { formatDuration } from '../../lib/catalogue/song.ts'
import { Icon } from '../../ui/Icon.tsx'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { useWatchedStationListeners } from './station-listeners.ts'
import { watchStationClock } from './station-clock.ts'

const titleOf = (description: string) => description.split(': ').slice(1).join(': ') || description

function useStation(): StationState {
  const [state, setState] = useState<StationState>(() => getStation().state)
  useEffect(() => getStation().subscribe(setState), [])
  // Play then has only the first seconds of the piece on air to render.
  useEffect(() => getStation().warm(), [])
  // The programme runs on the server's clock: measured while the page is open, before Play.
  useEffect(() => watchStationClock(), [])
  return state
}

/** The Media Session shows the station's current piece and its controls work. */
function useStationMediaSession(state: StationState) {
  const title = state.current ? titleOf(state.current.recipe.description) : null
  const album = state.current ? `${MOOD_LABELS[state.current.recipe.mood]} · ${GENRE_LABELS[state.current.recipe.genre]}` : ''
  const status = state.status
  useEffect(() => {
    if (!('mediaSession' in navigator) || !title || status === 'stopped') return
    navigator.mediaSession.metadata = new MediaMetadata({ title, artist: 'CUBE Radio', album })
    navigator.mediaSession.setActionHandler('nexttrack', () => getStation().skip())
    navigator.mediaSession.setActionHandler('pause', () => getStation().stop())
    navigator.mediaSession.setActionHandler('play', () => void getStation().start())
    return () => {
      navigator.mediaSession.setActionHandler('nexttrack', null)
    }
  }, [title, album, status])
}

export default function StreamPage() {
  const state = useStation()
  useStationMediaSession(state)
  const listeners = useWatchedStationListeners()
  const station = getStation()
  const playing = state.status !== 'stopped'
  const select = 'rounded-md border border-line bg-bg/60 px-2 py-1 text-sm'
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <header>
        <h1 className="text-2xl font-bold neon-text">CUBE Radio</h1>
        <p className="text-sm text-muted">
          A station that never ends: new music composed on your device, the same programme for every listener at the same time. Each piece
          plays {SLOT_SECONDS} s and crossfades into the next over {CROSSFADE_SECONDS} s.
        </p>
      </header>
      <section aria-label="Now on air" className="panel flex flex-col gap-3 p-4" data-testid="station-now">
        <div className="flex items-center gap-3">
          <button
            type="button"
            onClick={() => (playing ? station.stop() : (usePlayerStore.getState().pause(), void station.start()))}
            aria-label={playing ? 'Stop the station' : 'Play the station'}
            className="flex h-12 w-12 items-center justify-center rounded-full bg-primary text-bg neon-box"
          >
            <Icon name={playing ? 'pause' : 'play'} size={20} />
          </button>
          <div className="min-w-0 flex-1">
            <p className="text-xs text-muted">
              {state.status === 'tuning' ? 'Tuning in… composing the current piece' : state.status === 'playing' ? 'On air' : 'Off air'}
            </p>
            <p className="truncate text-lg font-bold" data-testid="station-title">
              {state.current ? titleOf(state.current.recipe.description) : '—'}
            </p>
            {state.current && (
              <p className="text-sm text-muted">
                {MOOD_LABELS[state.current.recipe.mood]} · {GENRE_LABELS[state.current.recipe.genre]} ·{' '}
                <span className="tabular-nums" data-testid="station-position">
                  {formatDuration(state.position)}
                </span>{' '}
                / {formatDuration(SLOT_SECONDS)}
              </p>
            )}
          </div>
          <button
            type="button"
            onClick={() => station.skip()}
            disabled={!playing}
            className="flex items-center gap-1 rounded-md border border-line px-3 py-1.5 text-sm disabled:opacity-50"
          >
            <Icon name="next" size={14} /> Skip
          </button>
        </div>
        <p className="text-xs text-muted" aria-live="polite" data-testid="station-listeners">
          {listeners === null ? '' : `${Math.max(listeners, playing ? 1 : 0)} listening now${playing ? ', you included' : ''}`}
        </p>
        {state.error && (
          <p role="alert" className="text-sm text-secondary">
            The station could not compose this piece: {state.error}
          </p>
        )}
        {state.skipped > 0 && (
          <p className="text-xs text-muted">
            You are {state.skipped} piece{state.skipped > 1 ? 's' : ''} ahead of the shared programme; change the steer to rejoin it.
          </p>
        )}
      </section>
      <section aria-label="Up next" className="panel p-4">
        <h2 className="font-bold">Up next</h2>
        <p data-testid="station-next">
          {state.next
            ? `${titleOf(state.next.recipe.description)} — ${MOOD_LABELS[state.next.recipe.mood]} · ` +
              `${GENRE_LABELS[state.next.recipe.genre]}`
            : 'Press play to tune in'}
        </p>
      </section>
      <section aria-label="Steer the station" className="panel flex flex-wrap items-end gap-3 p-4">
        <label className="flex flex-col gap-1 text-sm">
          Mood
          <select
            className={select}
            value={state.steer.mood ?? ''}
            onChange={(e) => station.setSteer({ ...state.steer, mood: (e.target.value || undefined) as Mood | undefined })}
          >
            <option value="">Any mood</option>
            {MOODS.map((m) => (
              <option key={m} value={m}>
                {MOOD_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Genre
          <select
            className={select}
            value={state.steer.genre ?? ''}
            onChange={(e) => station.setSteer({ ...state.steer, genre: (e.target.value || undefined) as Genre | undefined })}
          >
            <option value="">Any genre</option>
            {GENRES.map((g) => (
              <option key={g} value={g}>
                {GENRE_LABELS[g]}
              </option>
            ))}
          </select>
        </label>
        <p className="text-xs text-muted">Each steer is its own channel, shared by everyone tuned to it.</p>
      </section>
    </div>
  )
}
