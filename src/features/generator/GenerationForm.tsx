import { useId, useState, type FormEvent, type KeyboardEvent } from 'react'
import { notify } from '../../lib/notify.ts'
import { GENRE_LABELS, GENRES, MOOD_LABELS, MOODS, type Genre, type Mood } from '../../engine/composer.ts'
import { DESCRIPTION_MAX, DESCRIPTION_REQUIRED_MESSAGE, DESCRIPTION_REQUIRED_TITLE, type GenerationRequest } from './generation-machine.ts'

interface Props {
  busy: boolean
  onGenerate: (request: GenerationRequest) => void
  /** The landing card shows only the description, which then decides mood and genre. */
  compact?: boolean
  submitLabel: string
}

/** The select value that leaves a choice to the description (vocabulary.ts in the composer). */
export const AUTO = 'auto'

/** Description (required), mood and genre ('Auto' by default). Ctrl/⌘+Enter submits from the description box. */
export function GenerationForm({ busy, onGenerate, compact = false, submitLabel }: Props) {
  const id = useId()
  const [description, setDescription] = useState('')
  const [mood, setMood] = useState<Mood | typeof AUTO>(AUTO)
  const [genre, setGenre] = useState<Genre | typeof AUTO>(AUTO)

  const submit = (e?: FormEvent) => {
    e?.preventDefault()
    if (busy) return
    if (!description.trim()) {
      notify.error(DESCRIPTION_REQUIRED_TITLE, { description: DESCRIPTION_REQUIRED_MESSAGE })
      return
    }
    const request: GenerationRequest = { description: description.trim() }
    if (!compact && mood !== AUTO) request.mood = mood
    if (!compact && genre !== AUTO) request.genre = genre
    onGenerate(request)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit()
  }

  const field =
    'w-full rounded-md border border-line bg-bg/60 px-3 py-2 text-fg placeholder:text-muted focus:border-primary focus:outline-none'
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label={compact ? 'Generate an AI track' : 'Generate music'} noValidate>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-description`} className="text-sm font-semibold text-fg">
          Description
        </label>
        <textarea
          id={`${id}-description`}
          value={description}
          onChange={(e) => setDescription(e.target.value.slice(0, DESCRIPTION_MAX))}
          onKeyDown={onKeyDown}
          rows={compact ? 2 : 4}
          maxLength={DESCRIPTION_MAX}
          placeholder="Describe your track: a neon-lit night drive, rain on a tin roof…"
          className={field}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className="text-xs text-muted">
          {compact
            ? 'Name a mood, a style or an instrument: the same description always gives the same piece.'
            : 'Mood and genre on Auto follow the description. The same description, mood and genre always give the same piece.'}{' '}
          {description.length}/{DESCRIPTION_MAX}
        </p>
      </div>
      {!compact && (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-mood`} className="text-sm font-semibold text-fg">
              Mood
            </label>
            <select id={`${id}-mood`} value={mood} onChange={(e) => setMood(e.target.value as Mood | typeof AUTO)} className={field}>
              <option value={AUTO}>Auto (from description)</option>
              {MOODS.map((m) => (
                <option key={m} value={m}>
                  {MOOD_LABELS[m]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-genre`} className="text-sm font-semibold text-fg">
              Genre
            </label>
            <select id={`${id}-genre`} value={genre} onChange={(e) => setGenre(e.target.value as Genre | typeof AUTO)} className={field}>
              <option value={AUTO}>Auto (from description)</option>
              {GENRES.map((g) => (
                <option key={g} value={g}>
                  {GENRE_LABELS[g]}
                </option>
              ))}
            </select>
          </div>
        </div>
      )}
      <button
        type="submit"
        disabled={busy || description.length === 0}
        className="self-start rounded-md bg-primary px-5 py-2 font-bold text-bg neon-box disabled:cursor-not-allowed disabled:opacity-50"
      >
        {busy ? 'Generating…' : submitLabel}
      </button>
    </form>
  )
}
