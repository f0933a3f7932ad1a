import { useEffect } from 'react'
import { startSessionSync } from '../domain/session/session-sync.ts'
import { announceAuthLink } from '../domain/session/auth-link-notice.ts'
import { startSiteBranding } from '../domain/appearance/site-branding.ts'
import { startLiveNotices } from '../features/settings/index.ts'
import { startListenReporter } from '../domain/economy/listen-reporter.ts'
import { startRewardRules } from '../domain/economy/reward-rules.ts'
import { startRewardFlash } from '../domain/economy/reward-store.ts'
import { startShareLinks } from '../domain/economy/share-link-sync.ts'
import { startPlayerService } from '../domain/playback/player-service.ts'
import { resumeAfterReload } from '../domain/playback/player-resume.ts'
import { startOutputDelay } from '../domain/playback/output-delay-store.ts'
import { startPlaylistSync } from '../domain/collection/playlist-sync.ts'
import { startCreationSync } from '../domain/collection/creation-sync.ts'
import { startOfflineSync } from '../domain/collection/offline-store.ts'
import { startOfflinePlays } from '../domain/economy/offline-plays.ts'
import { registerServiceWorker } from './service-worker-registration.ts'
import { startDurationCorrection } from '../domain/collection/duration-correction.ts'
import { startPlayRecorder } from '../domain/analytics/view-recorder.ts'
import { startStationClock, startStationListeners, startStationReporter } from '../features/stream/index.ts'
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
  // Before the session sync's client reads (and clears) a mailed link's fragment.
  announceAuthLink()
  startSiteBranding()
  startPlayerService()
  startOutputDelay()
  void resumeAfterReload()
  startSessionSync()
  startLiveNotices()
  startRewardRules()
  startRewardFlash()
  startListenReporter()
  startPlaylistSync()
  startCreationSync()
  startOfflineSync()
  startOfflinePlays()
  registerServiceWorker()
  startDurationCorrection()
  startStudioProjectSync()
  startMixAutosave()
  startPlayRecorder()
  startStationReporter()
  startStationListeners()
  startStationClock()
  startShareLinks()
}

/** For the layouts that host signed-in features (the /app layout and Now Playing). */
export function useBackendServices(): void {
  useEffect(startBackend, [])
}
