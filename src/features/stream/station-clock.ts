import { supabase } from '../../backend/client.ts'
import { fetchServerTime } from '../../backend/server-clock.ts'
import { trackClockOffset, type ClockOffsetTracker, type TrackerOptions } from '../../lib/clock-offset.ts'
import { getStation } from '../../engine/station/station-player.ts'
import { followRadioUse, type RadioUse, type StationSource } from './radio-use.ts'

// CUBE Radio's programme is one schedule for everyone, so it has to run on one clock: the server's.
// While the Stream page is open or the station plays, this page's offset to the server's clock is
// measured (and measured again every minute) and given to the station; a device set seconds wrong
// still hears the piece and the position everyone else hears. Nobody near the radio: no probes.

interface StationClockTarget extends StationSource {
  setClockOffset(offsetMs: number): void
}

export type StationClock = RadioUse

export function createStationClock(
  station: StationClockTarget,
  serverTime: TrackerOptions['serverTime'],
  track: (options: TrackerOptions) => ClockOffsetTracker = trackClockOffset,
): StationClock {
  let tracker: ClockOffsetTracker | null = null
  const stopTracking = () => {
    tracker?.stop()
    tracker = null
  }
  return followRadioUse(
    station,
    (state, watched) => {
      const wanted = state.status !== 'stopped' || watched
      if (!wanted) return stopTracking()
      // A failed round keeps the last offset (or the device's clock): the station plays on regardless.
      tracker ??= track({ serverTime, onEstimate: (e) => station.setClockOffset(e.offsetMs), onError: () => {} })
    },
    stopTracking,
  )
}

let service: StationClock | undefined
const stationClock = (): StationClock => (service ??= createStationClock(getStation(), () => fetchServerTime(supabase())))

/** Started once per page with the other services (src/app/start-services.ts). */
export function startStationClock(): void {
  stationClock()
}

/** For the Stream page: measure while it is shown. */
export const watchStationClock = (): (() => void) => stationClock().watch()
