import { useEffect } from 'react'
import { formatDuration } from '../../lib/catalogue/song.ts'
import { Icon } from '../../ui/Icon.tsx'
import { quietButtonClass } from '../../ui/form-ui.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { AiToolsPanel, EffectsPanel, SamplesPanel } from './RemixControls.tsx'
import { RemixCreatePanel } from './RemixCreatePanel.tsx'
import { RemixSourcePicker } from './RemixSourcePicker.tsx'
import { RemixWaveform } from './RemixWaveform.tsx'
import { formatLoop } from './loop-region.ts'
import { REMIX_COST } from './remix-burn-machine.ts'
import { openDraft, removeDraft, seekPreview, setLoopRegion, startRemixService, togglePreview } from './remix-service.ts'
import { useRemixStore } from './remix-store.ts'

function BalanceBar() {
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const balance = useSessionStore((s) => s.wallet?.balance ?? null)
  const openAuth = useAuthModalStore((s) => s.open)
  return (
    <div
      className="panel sticky top-0 z-10 flex items-center justify-between gap-3 px-4 py-2 text-sm backdrop-blur"
      data-testid="remix-balance-bar"
    >
      {signedIn ? (
        <span>
          <Icon name="cube" size={14} className="mr-1 inline" /> Balance: <strong data-testid="remix-balance">{balance ?? '…'} CUBE</strong>
        </span>
      ) : (
        <span>Log in to spend CUBE on remixes.</span>
      )}
      {signedIn ? (
        <span className="text-muted">A remix burns {REMIX_COST} CUBE</span>
      ) : (
        <button type="button" className={quietButtonClass} onClick={() => openAuth('login')}>
          Login / Register
        </button>
      )}
    </div>
  )
}

export function PreviewPlayer() {
  const { status, stage, progress, error, peaks, duration, position, playing, loop, source, preparedBpm } = useRemixStore()
  return (
    <section
      className="panel space-y-3 p-4"
      aria-labelledby="remix-preview"
      data-testid="remix-preview"
      data-prepared-bpm={preparedBpm === null ? undefined : Math.round(preparedBpm)}
    >
      <h2 id="remix-preview" className="font-display text-lg font-semibold">
        Preview
      </h2>
      <RemixSourcePicker />
      {status === 'empty' && (
        <p className="text-sm text-muted">
          Pick a track: it is analysed on your device (tempo, key, pitch) and plays here with your changes.
        </p>
      )}
      {(status === 'loading' || status === 'preparing') && (
        <div role="status" data-testid="remix-preparing">
          <p className="text-sm">{stage}</p>
          <progress className="w-full" max={1} value={status === 'preparing' ? progress : undefined} aria-label="Preparing the source" />
        </div>
      )}
      {status === 'error' && (
        <p role="alert" className="text-sm text-red-400" data-testid="remix-source-error">
          {error}
        </p>
      )}
      {source && status !== 'error' && (
        <>
          <RemixWaveform peaks={peaks} duration={duration} position={position} loop={loop} onSeek={seekPreview} onLoop={setLoopRegion} />
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              className="grid h-10 w-10 place-items-center rounded-full bg-primary text-bg disabled:opacity-50"
              onClick={() => void togglePreview()}
              disabled={status !== 'ready'}
              aria-label={playing ? 'Pause preview' : 'Play preview'}
              data-testid="remix-play"
              data-playing={playing}
            >
              <Icon name={playing ? 'pause' : 'play'} size={18} />
            </button>
            <span className="text-sm tabular-nums" data-testid="remix-time">
              {formatDuration(position)} / {formatDuration(duration)}
            </span>
            {/* Always in the page, so a screen reader announces the region when it appears or changes. */}
            <span role="status" className="text-sm tabular-nums" data-testid="remix-loop">
              {loop ? formatLoop(loop) : ''}
            </span>
            {loop ? (
              <button type="button" className={quietButtonClass} onClick={() => setLoopRegion(null)} data-testid="remix-loop-clear">
                Clear loop
              </button>
            ) : (
              <span className="text-xs text-muted">Drag across the waveform to loop a region, or press [ and ] on it at the playhead.</span>
            )}
          </div>
        </>
      )}
    </section>
  )
}

function DraftsList() {
  const drafts = useRemixStore((s) => s.drafts)
  if (drafts.length === 0) return null
  return (
    <section className="panel space-y-2 p-4" aria-labelledby="remix-drafts">
      <h2 id="remix-drafts" className="font-display text-lg font-semibold">
        Drafts
      </h2>
      <ul className="space-y-1" data-testid="remix-drafts">
        {drafts.map((d) => (
          <li key={d.id} className="flex items-center justify-between gap-2 text-sm">
            <span>
              {d.name} <span className="text-muted">· {new Date(d.savedAt).toLocaleString()}</span>
            </span>
            <span className="flex gap-1">
              <button type="button" className={quietButtonClass} onClick={() => void openDraft(d.id)}>
                Open
              </button>
              <button type="button" className={quietButtonClass} onClick={() => void removeDraft(d.id)} aria-label={`Delete ${d.name}`}>
                <Icon name="trash" size={14} />
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

export default function RemixPage() {
  useEffect(() => {
    document.title = 'Remix Studio · CUBE Music'
    return startRemixService()
  }, [])
  return (
    <section className="mx-auto max-w-6xl space-y-4 p-4 sm:p-6">
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Remix Studio</h1>
        <p className="mt-1 text-muted">Create remixes by burning tokens</p>
      </header>
      <BalanceBar />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-4">
          <PreviewPlayer />
          <div className="grid gap-4 md:grid-cols-2">
            <EffectsPanel />
            <SamplesPanel />
          </div>
          <AiToolsPanel />
        </div>
        <div className="min-w-0 space-y-4">
          <RemixCreatePanel />
          <DraftsList />
        </div>
      </div>
    </section>
  )
}
