import { useEffect } from 'react'
import { create } from 'zustand'
import { joinPresenceRoom, type PresenceRoom } from '../../backend/presence.ts'
import type { Steer } from '../../engine/station/programme.ts'
import { getStation } from '../../engine/station/station-player.ts'
import { followRadioUse, type RadioUse, type StationSource } from './radio-use.ts'

// "N listening now" on CUBE Radio: everyone with a steer's channel on air is present in that
// steer's Realtime presence room (each steer is its own programme, so its own audience). The count
// is the keys the server's presence holds, and the server admits at most a few channels per client
// address and topic (supabase/local/realtime/presence.ts), so one visitor cannot show thirty.

/** How many have the shown channel on air now; null while no room has answered (or none is open). */
export const useStationListeners = create<{ count: number | null }>(() => ({ count: null }))

export const listenersTopic = (steer: Steer): string => `radio:${steer.mood ?? 'any'}:${steer.genre ?? 'any'}`

export type StationListeners = RadioUse

/**
 * The room is open while the station plays or the Stream page is open, so a visitor who never
 * goes near the radio opens no socket; this tab is present in it only while the station plays.
 */
export function createStationListeners(station: StationSource, join: typeof joinPresenceRoom = joinPresenceRoom): StationListeners {
  let room: PresenceRoom | null = null
  let topic: string | null = null
  const close = () => {
    room?.close()
    room = null
  }
  return followRadioUse(
    station,
    ({ status, steer }, watched) => {
      const playing = status !== 'stopped'
      const wanted = playing || watched ? listenersTopic(steer) : null
      if (wanted !== topic) {
        close()
        topic = wanted
        useStationListeners.setState({ count: null })
        if (wanted)
          room = join(wanted, (count) => {
            if (topic === wanted) useStationListeners.setState({ count })
          })
      }
      room?.setPresent(playing)
    },
    () => {
      close()
      topic = null
      useStationListeners.setState({ count: null })
    },
  )
}

let service: StationListeners | undefined
const stationListeners = (): StationListeners => (service ??= createStationListeners(getStation()))

/** Started once per page with the other services (src/app/start-services.ts). */
export function startStationListeners(): void {
  stationListeners()
}

/**
 * For the Stream page: keeps the room open while it is shown, and gives the count. It may run
 * before the layout starts the services (a child's effects run first), so it starts this one.
 */
export function useWatchedStationListeners(): number | null {
  useEffect(() => stationListeners().watch(), [])
  return useStationListeners((s) => s.count)
}
