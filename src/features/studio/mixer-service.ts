/**
 * The studio's wiring: the mixer engine follows the mixer store (parameters go to the strips,
 * tracks come and go). Started by the Live Mixer while it is on screen; stopping pauses playback,
 * as leaving the studio always has.
 */
import { mixerEngine } from '../../engine/mixer-engine.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { mixerSnapshot, useMixerStore } from './mixer-store.ts'
import { installStudioDebugHook } from './mixer/studio-debug-hook.ts'

export function startMixerService(): () => void {
  installStudioDebugHook()
  const unsubscribe = useMixerStore.subscribe((s, prev) => {
    if (s.tracks === prev.tracks && s.master === prev.master) return
    const snap = mixerSnapshot()
    mixerEngine.sync(snap)
    if (snap.tracks.length > 0) void mixerEngine.ensure(snap).catch((err: unknown) => notify.error('Audio engine failed', { description: errorMessage(err) }))
  })
  const snap = mixerSnapshot()
  if (snap.tracks.length > 0) void mixerEngine.ensure(snap).catch(() => {})
  mixerEngine.sync(snap)
  return () => {
    unsubscribe()
    mixerEngine.pause()
  }
}
