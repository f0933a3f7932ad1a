import { useListenPrompt } from '../../domain/economy/listen-prompt.ts'
import { useAnswerStillListening } from '../../domain/economy/useAnswerStillListening.ts'
import { notify } from '../../lib/notify.ts'
import { errorMessage } from '../../lib/error-message.ts'

/**
 * "Still listening?": after an hour without a click or a key the server stops paying for listening
 * (the music plays on). Any interaction answers it; this button says so and resumes at once. It
 * floats above the player bar (whose height the bar publishes as --player-bar-room).
 */
export function StillListeningPrompt() {
  const needsInteraction = useListenPrompt((s) => s.needsInteraction)
  const answering = useListenPrompt((s) => s.answering)
  const answerStillListening = useAnswerStillListening()
  if (!needsInteraction) return null
  return (
    <div
      role="alertdialog"
      aria-labelledby="still-listening-title"
      aria-describedby="still-listening-body"
      data-testid="still-listening"
      className={
        'fixed inset-x-3 bottom-[calc(var(--player-bar-room,0px)+1rem)] z-40 mx-auto max-w-md rounded-lg border border-accent ' +
        'bg-panel/95 p-4 shadow-lg backdrop-blur'
      }
    >
      <p id="still-listening-title" className="font-display font-bold text-accent">
        Still listening?
      </p>
      <p id="still-listening-body" className="mt-1 text-sm text-muted">
        Rewards are paused: nobody has touched CUBE for an hour. The music keeps playing; listening earns CUBE again as soon as you answer.
      </p>
      <button
        type="button"
        disabled={answering}
        onClick={() =>
          answerStillListening().catch((e: unknown) => notify.error('Could not resume rewards', { description: errorMessage(e) }))
        }
        className="mt-3 rounded bg-primary px-4 py-2 font-bold text-bg disabled:opacity-60"
      >
        {answering ? 'Resuming…' : "Yes, I'm listening"}
      </button>
    </div>
  )
}
