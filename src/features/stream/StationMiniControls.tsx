import { useEffect, useState } from 'react'
import { getStation, type StationState } from '../../engine/station/station-player.ts'
import { Icon } from '../../ui/Icon.tsx'

/** The player bar's view of CUBE Radio while it is on: what is on air, Skip and Stop. */
export function StationMiniControls() {
  const [state, setState] = useState<StationState>(() => getStation().state)
  useEffect(() => getStation().subscribe(setState), [])
  if (state.status === 'stopped') return null
  const title = state.current?.recipe.description.split(': ').slice(1).join(': ') ?? 'Tuning in…'
  return (
    <div className="mb-3 flex items-center gap-2 rounded-md border border-accent/60 p-2" data-testid="mini-station">
      <div className="min-w-0 flex-1">
        <p className="text-xs text-accent">CUBE Radio</p>
        <p className="truncate text-sm font-semibold">{title}</p>
      </div>
      <button
        type="button"
        onClick={() => getStation().skip()}
        aria-label="Skip to the next station piece"
        className="rounded p-1.5 text-muted hover:text-primary"
      >
        <Icon name="next" size={16} />
      </button>
      <button
        type="button"
        onClick={() => getStation().stop()}
        aria-label="Stop the station"
        className="rounded p-1.5 text-muted hover:text-secondary"
      >
        <Icon name="pause" size={16} />
      </button>
    </div>
  )
}
