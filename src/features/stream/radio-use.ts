import type { StationState } from '../../engine/station/station-player.ts'

// The stream services (who is listening, the station's clock) run only while the radio is in use:
// the station plays, or a Stream page watches it. This follows both and tells the service.

export interface StationSource {
  readonly state: StationState
  subscribe(listener: (state: StationState) => void): () => void
}

export interface RadioUse {
  /** A Stream page is open. Returns the release. */
  watch(): () => void
  /** Stops following the station (the service lets go of what it holds in `onStop`). */
  stop(): void
}

/** Calls `sync` now and at every change of the station's state or of the pages watching it. */
export function followRadioUse(
  station: StationSource,
  sync: (state: StationState, watched: boolean) => void,
  onStop: () => void,
): RadioUse {
  let watchers = 0
  const unsubscribe = station.subscribe((state) => sync(state, watchers > 0))
  return {
    watch() {
      watchers += 1
      sync(station.state, true)
      return () => {
        watchers -= 1
        sync(station.state, watchers > 0)
      }
    },
    stop() {
      unsubscribe()
      onStop()
    },
  }
}
