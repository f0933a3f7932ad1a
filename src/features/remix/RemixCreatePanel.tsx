import { useMachine } from '@xstate/react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import type { Song } from '../../lib/catalogue/song.ts'
import { notify } from '../../lib/notify.ts'
import { buttonClass, quietButtonClass } from '../../ui/form-ui.tsx'
import { refreshWallet } from '../../domain/session/session-sync.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { clearPending, usePendingAttempt, writePending } from './pending-attempt.ts'
import { REMIX_COST } from './remix-burn-machine.ts'
import { createRemixBurnRuntime } from './remix-burn-runtime.ts'
import { pickSource, saveDraft } from './remix-service.ts'
import { useRemixStore } from './remix-store.ts'

export function RemixCreatePanel() {
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const userId = useSessionStore((s) => s.user?.id)
  const balance = useSessionStore((s) => s.wallet?.balance ?? null)
  const openAuth = useAuthModalStore((s) => s.open)
  const status = useRemixStore((s) => s.status)
  const source = useRemixStore((s) => s.source)
  const [result, setResult] = useState<{ song: Song; url: string } | null>(null)
  const pending = usePendingAttempt((s) => s.pending)
  const refreshPending = usePendingAttempt((s) => s.refresh)

  const machine = useMemo(
    () =>
      createRemixBurnRuntime((song, wav) => {
        const url = URL.createObjectURL(wav)
        setResult((old) => {
          if (old) URL.revokeObjectURL(old.url)
          return { song, url }
        })
      }),
    [],
  )
  const [state, send] = useMachine(machine)
  const ctx = state.context

  // The attempt is remembered from the moment it may burn until it is produced or refunded.
  useEffect(() => {
    const s = useRemixStore.getState()
    if ((state.matches('burning') || state.matches('rendering')) && ctx.attemptKey && userId && s.source) {
      writePending({
        userId,
        key: ctx.attemptKey,
        source: { ref: s.source.ref, title: s.source.title, audioUrl: s.source.audioUrl },
        settings: s.settings,
        loop: s.loop,
      })
    }
    if (state.matches('remixed')) clearPending(ctx.attemptKey)
    if (state.matches('burning') || state.matches('remixed') || state.matches('idle')) refreshPending(userId)
  }, [state, ctx.attemptKey, userId, refreshPending])
  useEffect(() => {
    if (userId && (state.matches('rendering') || state.matches('remixed') || state.matches('idle'))) void refreshWallet(userId)
  }, [state.value, userId]) // eslint-disable-line react-hooks/exhaustive-deps
  const remixed = state.matches('remixed')
  useEffect(() => {
    if (remixed && result) notify.success('Remix Created!', { description: `"${result.song.title}" is in your Library.` })
  }, [remixed, result])
  useEffect(() => refreshPending(userId), [userId, refreshPending])
  // A resumed attempt reopens its source, then goes to the server with its kept key.
  const resume = async () => {
    if (!pending) return
    await pickSource({ ...pending.source }, { settings: pending.settings, loop: pending.loop })
    if (useRemixStore.getState().status === 'ready') send({ type: 'RESUME', source: pending.source.ref, attemptKey: pending.key })
  }

  const ready = status === 'ready'
  const busy = state.matches('confirming') || state.matches('burning') || state.matches('rendering') || state.matches('refunding')
  const create = () => {
    if (!signedIn) {
      notify('Log in to create a remix', { description: 'The preview, effects and tools work without an account.' })
      openAuth('login')
      return
    }
    if (!source) return
    send({ type: 'CREATE', source: source.ref, balance, signedIn })
  }
  const refund = () => {
    send({ type: 'REFUND' })
  }
  const previous = useRef<string>('idle')
  useEffect(() => {
    // A refunded attempt ends here (refunding → idle): nothing is left to resume.
    const now = String(state.value)
    // burning → idle is a refused burn (nothing was charged): nothing to resume either.
    if ((previous.current === 'refunding' || previous.current === 'burning') && now === 'idle') {
      clearPending(null)
      refreshPending(userId)
    }
    previous.current = now
  }, [state.value, userId, refreshPending])

  return (
    <section className="panel space-y-3 p-4" aria-labelledby="remix-create" data-testid="remix-create" data-state={String(state.value)}>
      <h2 id="remix-create" className="font-display text-lg font-semibold">
        Create
      </h2>
      <p className="flex items-center justify-between text-sm">
        <span>Token Cost</span>
        <span className="font-semibold text-primary" data-testid="remix-cost">
          {REMIX_COST} CUBE
        </span>
      </p>
      {pending && state.matches('idle') && (
        <div className="rounded-md border border-primary/60 p-3 text-sm" role="status" data-testid="remix-pending">
          <p>
            Your remix of “{pending.source.title}” was interrupted after its {REMIX_COST} CUBE were burned.
          </p>
          <button type="button" className={`${quietButtonClass} mt-2`} data-testid="remix-resume" onClick={() => void resume()}>
            Resume it (no new charge)
          </button>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={quietButtonClass}
          disabled={!source || status === 'loading'}
          onClick={() => void saveDraft()}
          data-testid="remix-save-draft"
        >
          Save Draft
        </button>
        <button
          type="button"
          className={buttonClass}
          data-testid="remix-create-button"
          disabled={!ready || busy || state.matches('remixed') || (signedIn && (balance ?? 0) < REMIX_COST)}
          onClick={create}
        >
          {state.matches('remixed') ? 'Remix Created!' : 'Create Remix'}
        </button>
      </div>
      {signedIn && balance !== null && balance < REMIX_COST && state.matches('idle') && (
        <p className="text-sm text-red-400" role="alert" data-testid="remix-insufficient">
          You need at least {REMIX_COST} CUBE to create a remix (you have {balance}).
        </p>
      )}
      {ctx.error && (state.matches('idle') || state.matches('failed')) && (
        <p className="text-sm text-red-400" role="alert" data-testid="remix-error">
          {ctx.error}
        </p>
      )}

      {state.matches('confirming') && (
        <div
          role="dialog"
          aria-modal="false"
          aria-labelledby="remix-confirm-title"
          className="rounded-md border border-primary p-3"
          data-testid="remix-confirm"
        >
          <p id="remix-confirm-title" className="font-semibold">
            Burn {REMIX_COST} CUBE to create this remix?
          </p>
          <p className="text-sm text-muted">The remix is rendered with your current settings and saved to your Library.</p>
          <div className="mt-2 flex gap-2">
            <button type="button" className={buttonClass} onClick={() => send({ type: 'CONFIRM' })} data-testid="remix-confirm-burn">
              Burn {REMIX_COST} CUBE
            </button>
            <button type="button" className={quietButtonClass} onClick={() => send({ type: 'CANCEL' })}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {state.matches('burning') && (
        <p className="relative text-sm" role="status">
          Burning {REMIX_COST} CUBE…{' '}
          <span className="reward-pop absolute -top-3 left-32 font-bold text-red-400" aria-hidden>
            -{REMIX_COST}
          </span>
        </p>
      )}
      {state.matches('rendering') && (
        <div role="status" className="space-y-2" data-testid="remix-rendering">
          <p className="text-sm">Rendering the remix… {Math.round(ctx.progress * 100)}%</p>
          <progress className="w-full" max={1} value={ctx.progress} aria-label="Render progress" />
          <button type="button" className={quietButtonClass} onClick={() => send({ type: 'CANCEL' })} data-testid="remix-cancel-render">
            Cancel
          </button>
        </div>
      )}
      {state.matches('failed') && (
        <div className="flex flex-wrap gap-2" data-testid="remix-failed">
          <button type="button" className={buttonClass} onClick={() => send({ type: 'RETRY' })} data-testid="remix-retry">
            Try again (no new charge)
          </button>
          <button type="button" className={quietButtonClass} onClick={refund} data-testid="remix-refund">
            Give up and refund {REMIX_COST} CUBE
          </button>
        </div>
      )}
      {state.matches('remixed') && result && (
        <div className="space-y-2 rounded-md border border-primary p-3" data-testid="remix-result">
          <p className="font-semibold text-primary">Remix Created!</p>
          <p className="text-sm">
            “{result.song.title}” is saved in your{' '}
            <Link to="/app/library" className="text-primary underline">
              Library
            </Link>
            .
          </p>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={quietButtonClass}
              onClick={() => usePlayerStore.getState().playSong(result.song)}
              data-testid="remix-play-result"
            >
              Play the remix
            </button>
            <a className={quietButtonClass} href={result.url} download={`${result.song.title}.wav`} data-testid="remix-download">
              Download WAV
            </a>
            <button type="button" className={quietButtonClass} onClick={() => send({ type: 'RESET' })}>
              Make another
            </button>
          </div>
        </div>
      )}
    </section>
  )
}
