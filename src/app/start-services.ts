import { useEffect } from 'react'
import { startSessionSync } from '../features/account/index.ts'
import { startListenReporter, startRewardRules } from '../features/listen/index.ts'
import { startPlaylistSync } from '../features/playlists/index.ts'
import { startStudioProjectSync } from '../features/studio/index.ts'

let started = false

/** Connects the app to its backend once per page: auth events, reward rules, listen reports, playlist sync. */
export function startBackend(): void {
  if (started) return
  started = true
  startSessionSync()
  startRewardRules()
  startListenReporter()
  startPlaylistSync()
  startStudioProjectSync()
}

/** For the layouts that host signed-in features (the /app layout and Now Playing). */
export function useBackend(): void {
  useEffect(startBackend, [])
}
