import { useEffect } from 'react'
import { startSessionSync } from '../features/account/index.ts'
import { startSiteBranding } from '../features/admin/index.ts'
import { startLiveNotices } from '../features/settings/index.ts'
import { startListenReporter, startRewardRules } from '../features/listen/index.ts'
import { startPlayerService } from '../features/player/index.ts'
import { startPlaylistSync } from '../features/playlists/index.ts'
import { startPlayRecorder } from '../features/share/index.ts'
import { startStationReporter } from '../features/stream/index.ts'
import { startMixAutosave, startStudioProjectSync } from '../features/studio/index.ts'

let started = false

/**
 * Starts every feature's service once per page: each subscribes to its feature's store and drives
 * the engine or the backend (the player's deck, auth events, the reward rules, listen reports, playlist and studio
 * project sync, the mixer's autosaved draft). No component wires a store to the engine or the backend itself.
 */
export function startBackend(): void {
  if (started) return
  started = true
  startSiteBranding()
  startPlayerService()
  startSessionSync()
  startLiveNotices()
  startRewardRules()
  startListenReporter()
  startPlaylistSync()
  startStudioProjectSync()
  startMixAutosave()
  startPlayRecorder()
  startStationReporter()
}

/** For the layouts that host signed-in features (the /app layout and Now Playing). */
export function useBackend(): void {
  useEffect(startBackend, [])
}
