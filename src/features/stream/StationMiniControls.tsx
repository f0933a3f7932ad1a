import { useEffect, useState } from 'react'
import { SLOT_SECONDS } from '../../engine/station/programme.ts'
import { getStation, type StationState } from '../../engine/station/station-player.ts'
import { formatTime } from '../../lib/time-format.ts'
import { Icon } from '../../ui/Icon.tsx'

/** What the controls need of the station: its state as it changes, Skip and Stop. */
export interface StationControls {
  readonly state: StationState
  subscribe(listener: (state: StationState) => void): () => void
  skip(): void
  stop(): void
}

/**
 * The player bar's view of CUBE Radio while it is on: what is on air, how far into its slot, Skip
 * and Stop. The bar's own clock follows the deck (paused, or empty, while the station plays), so
 * the station's clock is shown here, where the station is.
 */
export function StationMiniControls({ station = getStation() }: { station?: StationControls }) {
  const [state, setState] = useState<StationState>(() => station.state)
  useEffect(() => station.subscribe(setState), [station])
  if (state.status === 'stopped') return null
  const title = state.current?.recipe.description.split(': ').slice(1).join(': ') ?? 'Tuning in…'
  return (
    <div className="mb-3 flex items-center gap-2 rounded-md border border-accent/60 p-2" data-testid="mini-station">
      <div className="min-w-0 flex-1">
        <p className="text-xs text-accent">
          CUBE Radio
          {state.current && (
            <span className="ml-1 tabular-nums text-muted" data-testid="mini-station-position">
              {formatTime(state.position)} / {formatTime(SLOT_SECONDS)}
            </span>
          )}
        </p>
        <p className="truncate text-sm font-semibold">{title}</p>
      </div>
      <button
        type="button"
        onClick={() => station.skip()}
        aria-label="Skip to the next station piece"
        className="rounded p-1.5 text-muted hover:text-primary"
      >
        <Icon name="next" size={16} />
      </button>
      <button
        type="button"
        onClick={() => station.stop()}
        aria-label="Stop the station"
        className="rounded p-1.5 text-muted hover:text-secondary"
      >
        <Icon name="pause" size={16} />
      </button>
    </div>
  )
}
