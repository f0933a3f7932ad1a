import { useId, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { Link } from 'react-router-dom'
import type { Song } from '../../lib/catalogue/song.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { GENRE_LABELS, GENRES } from '../../engine/composer.ts'
import { Icon } from '../../ui/Icon.tsx'
import { useDialogFocus } from '../../ui/useDialogFocus.ts'
import { publishAttempt } from './publish-attempt.ts'
import { publish } from './publish-service.ts'
import type { PublishStage } from './publish-track.ts'
import { usePublishedStore } from './published-store.ts'

const STAGE_TEXT: Record<PublishStage, string> = { encoding: 'Encoding to Opus…', uploading: 'Uploading and publishing…' }

/** Title, genre and cover for a track the user made, then publish it to everyone's catalogue. */
export function PublishDialog({ song, userId, onClose }: { song: Song; userId: string; onClose: () => void }) {
  const titleId = useId()
  const ref = useRef<HTMLDivElement>(null)
  const [title, setTitle] = useState(song.title)
  const [genre, setGenre] = useState<string>(song.genre && (GENRES as readonly string[]).includes(song.genre) ? song.genre : 'electronic')
  const [coverMode, setCoverMode] = useState<'generated' | 'upload'>('generated')
  const [coverFile, setCoverFile] = useState<File | null>(null)
  const [stage, setStage] = useState<PublishStage | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<{ slug: string } | null>(null)
  const rules = usePublishedStore((s) => s.rules)
  // This dialog is one attempt: one key for every try, one try at a time.
  const [attempt] = useState(() => publishAttempt<{ id: string; slug: string }>())
  const [submitting, setSubmitting] = useState(false)
  const busy = submitting || (stage !== null && !done && !error)
  useDialogFocus(ref, () => {
    if (!busy) onClose()
  })

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setError(null)
    if (attempt.busy) return
    if (coverMode === 'upload' && !coverFile) return setError('Choose a cover image, or use a generated cover.')
    setSubmitting(true)
    try {
      const result = await attempt.run((key) =>
        publish(song, { title, genre, coverFile: coverMode === 'upload' ? coverFile : null }, userId, key, setStage),
      )
      setDone(result)
      notify.success(`Published “${title.trim()}”`)
    } catch (err) {
      setStage(null)
      setError(errorMessage(err))
    } finally {
      setSubmitting(false)
    }
  }

  return createPortal(
    <div className="fixed inset-0 z-[60] flex items-center justify-center p-4">
      <div className="absolute inset-0 bg-black/70" aria-hidden onClick={busy ? undefined : onClose} />
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="panel neon-box relative w-full max-w-md space-y-4 p-5"
        data-testid="publish-dialog"
      >
        <div className="flex items-center justify-between">
          <h2 id={titleId} className="font-display text-lg font-bold text-primary">
            Publish track
          </h2>
          <button type="button" onClick={onClose} disabled={busy} className="rounded p-1 text-muted hover:text-fg" aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
        {done ? (
          <div className="space-y-3" role="status">
            <p>“{title.trim()}” is in everyone’s catalogue now.</p>
            <Link
              to={`/song/${done.slug}`}
              className="inline-block rounded-md bg-primary px-4 py-2 font-semibold text-bg"
              onClick={onClose}
            >
              Open its page
            </Link>
          </div>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="space-y-3">
            <label className="block text-sm">
              Title
              <input
                value={title}
                onChange={(e) => setTitle(e.currentTarget.value)}
                required
                maxLength={rules?.title_max ?? 100}
                className="mt-1 w-full rounded-md border border-line bg-bg px-3 py-2 text-fg"
                data-autofocus
              />
            </label>
            <label className="block text-sm">
              Genre
              <select
                value={genre}
                onChange={(e) => setGenre(e.currentTarget.value)}
                className="mt-1 w-full rounded-md border border-line bg-bg px-3 py-2 text-fg"
              >
                {GENRES.map((g) => (
                  <option key={g} value={g}>
                    {GENRE_LABELS[g]}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="text-sm">
              <legend>Cover</legend>
              <div className="mt-1 flex gap-4">
                <label className="flex items-center gap-2">
                  <input type="radio" name="cover" checked={coverMode === 'generated'} onChange={() => setCoverMode('generated')} />{' '}
                  Generated
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" name="cover" checked={coverMode === 'upload'} onChange={() => setCoverMode('upload')} /> Upload an
                  image
                </label>
              </div>
              {coverMode === 'upload' && (
                <label className="mt-2 block">
                  <span className="sr-only">Cover image</span>
                  <input
                    type="file"
                    accept="image/png,image/jpeg,image/webp"
                    onChange={(e) => setCoverFile(e.currentTarget.files?.[0] ?? null)}
                    className="block w-full text-muted"
                  />
                </label>
              )}
            </fieldset>
            <p className="text-xs text-muted">
              Encoded to Opus/WebM at {rules?.bitrate_kbps ?? 96} kbit/s in your browser. Limits:{' '}
              {rules
                ? `${rules.min_seconds} s to ${rules.max_seconds / 60} min, ${rules.max_audio_bytes / 1048576} MB, ` +
                  `${rules.per_day} tracks a day`
                : 'checked by the server'}
              .
            </p>
            {error && (
              <p role="alert" className="rounded-md border border-secondary/60 bg-secondary/10 p-2 text-sm text-secondary">
                {error}
              </p>
            )}
            {busy && (
              <p role="status" className="text-sm text-accent">
                {stage ? STAGE_TEXT[stage] : 'Preparing…'}
              </p>
            )}
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-md bg-primary px-4 py-2 font-semibold text-bg disabled:opacity-60"
            >
              {busy ? 'Publishing…' : 'Publish'}
            </button>
          </form>
        )}
      </div>
    </div>,
    document.body,
  )
}
