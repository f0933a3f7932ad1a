import { supabase } from '../../backend/client.ts'
import { fetchServerTime } from '../../backend/server-clock.ts'
import { trackClockOffset, type ClockOffsetTracker, type TrackerOptions } from '../../lib/clock-offset.ts'
import { getStation, type StationState } from '../../engine/station/station-player.ts'

// CUBE Radio's programme is one schedule for everyone, so it has to run on one clock: the server's.
// While the Stream page is open or the station plays, this page's offset to the server's clock is
// measured (and measured again every minute) and given to the station; a device set seconds wrong
// still hears the piece and the position everyone else hears. Nobody near the radio: no probes.

interface StationClockTarget {
  readonly state: StationState
  subscribe(listener: (state: StationState) => void): () => void
  setClockOffset(offsetMs: number): void
}

export interface StationClock {
  /** The Stream page is open (it measures before Play, so Play starts on the right moment). Returns the release. */
  watch(): () => void
  stop(): void
}

export function createStationClock(
  station: StationClockTarget,
  serverTime: TrackerOptions['serverTime'],
  track: (options: TrackerOptions) => ClockOffsetTracker = trackClockOffset,
): StationClock {
  let watchers = 0
  let tracker: ClockOffsetTracker | null = null
  const sync = () => {
    const wanted = station.state.status !== 'stopped' || watchers > 0
    if (wanted && !tracker) {
      // A failed round keeps the last offset (or the device's clock): the station plays on regardless.
      tracker = track({ serverTime, onEstimate: (e) => station.setClockOffset(e.offsetMs), onError: () => {} })
      tracker.ready.catch(() => {})
    } else if (!wanted && tracker) {
      tracker.stop()
      tracker = null
    }
  }
  const unsubscribe = station.subscribe(sync)
  return {
    watch() {
      watchers += 1
      sync()
      return () => {
        watchers -= 1
        sync()
      }
    },
    stop() {
      unsubscribe()
      tracker?.stop()
      tracker = null
    },
  }
}

let service: StationClock | undefined
const stationClock = (): StationClock => (service ??= createStationClock(getStation(), () => fetchServerTime(supabase())))

/** Started once per page with the other services (src/app/start-services.ts). */
export function startStationClock(): void {
  stationClock()
}

/** For the Stream page: measure while it is shown. */
export const watchStationClock = (): (() => void) => stationClock().watch()
