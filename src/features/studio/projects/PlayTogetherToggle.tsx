import { useEffect } from 'react'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { useBackend } from '../../../domain/session/backend-context.ts'

/**
 * "Play together" in a live session: opted in, this studio starts and pauses with the others who
 * opted in, at one musical position and instant; the clock's accuracy against the server's shows
 * once measured. A viewer hears the others' presses; its own stay in this studio. Leaving the
 * studio (or the session) turns it off: a cue must not start the mix on another page.
 */
export function PlayTogetherToggle({ viewer }: { viewer: boolean }) {
  const server = useBackend()
  const together = useLiveSessionStore((s) => s.together)
  const setPlayTogether = useLiveSessionStore((s) => s.setPlayTogether)
  useEffect(() => () => useLiveSessionStore.getState().setPlayTogether(server, false), [server])
  const clock =
    together.accuracyMs !== null
      ? `clock within ${Math.max(1, Math.ceil(together.accuracyMs))} ms`
      : together.error === null
        ? 'measuring the clock…'
        : null
  return (
    <div className="mt-2 text-sm" data-testid="play-together">
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={together.on} onChange={(e) => setPlayTogether(server, e.currentTarget.checked)} />
        Play together
        {together.on && clock && (
          <span className="text-xs text-muted" data-testid="play-together-clock">
            {clock}
          </span>
        )}
      </label>
      {together.on && together.error && (
        <p className="text-xs text-red-400" role="alert">
          {together.error}
        </p>
      )}
      <p className="text-xs text-muted">
        {viewer
          ? 'You hear Play and Pause when the others press them; yours stay in this studio.'
          : 'Play and Pause start and stop everyone who ticked it, at the same moment.'}
      </p>
    </div>
  )
}
