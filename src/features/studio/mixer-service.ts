/**
 * The studio's wiring: the mixer engine follows the mixer store (parameters go to the strips,
 * tracks come and go). Started by the Live Mixer while it is on screen; stopping pauses playback,
 * as leaving the studio always has.
 */
import { mixerEngine } from '../../engine/mixer-engine.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { mixerSnapshot, useMixerStore } from '../../domain/studio/mixer-store.ts'
import { installStudioDebugHook } from './mixer/studio-debug-hook.ts'
import { onMixerAudio } from '../../engine/mixer-audio.ts'
import { startInstrumentRenders } from '../../domain/studio/instrument-renders.ts'
import { gridSeconds } from '../../engine/arrangement/clip-edits.ts'
import { useTimelineStore, type LoopBars } from './timeline/timeline-store.ts'

/** The loop region in timeline seconds at the project tempo, or null when looping is off. */
export function loopSeconds(loop: LoopBars, bpm: number): { start: number; end: number } | null {
  if (!loop.enabled) return null
  const bar = gridSeconds('bar', bpm)
  return { start: (loop.fromBar - 1) * bar, end: (loop.toBar - 1) * bar }
}

export function startMixerService(): () => void {
  installStudioDebugHook()
  const unsubscribe = useMixerStore.subscribe((s, prev) => {
    if (s.tracks === prev.tracks && s.master === prev.master) return
    const snap = mixerSnapshot()
    mixerEngine.sync(snap)
    if (snap.tracks.length > 0)
      void mixerEngine.ensure(snap).catch((err: unknown) => notify.error('Audio engine failed', { description: errorMessage(err) }))
  })
  const applyLoop = () => {
    const { loop, metronome } = useTimelineStore.getState()
    const bpm = useMixerStore.getState().tempo
    mixerEngine.setLoop(loopSeconds(loop, bpm))
    mixerEngine.setMetronome({ on: metronome, bpm })
  }
  const unsubscribeLoop = useTimelineStore.subscribe((s, prev) => (s.loop !== prev.loop || s.metronome !== prev.metronome) && applyLoop())
  const unsubscribeTempo = useMixerStore.subscribe((s, prev) => s.tempo !== prev.tempo && applyLoop())
  const stopRenders = startInstrumentRenders()
  // An instrument track's new render joins playback as soon as it lands.
  const offAudio = onMixerAudio((id) => {
    if (useMixerStore.getState().tracks.some((t) => t.audioId === id)) mixerEngine.sync(mixerSnapshot())
  })
  const snap = mixerSnapshot()
  if (snap.tracks.length > 0) void mixerEngine.ensure(snap).catch(() => {})
  mixerEngine.sync(snap)
  applyLoop()
  return () => {
    mixerEngine.setMetronome({ on: false, bpm: 120 })
    unsubscribe()
    unsubscribeLoop()
    unsubscribeTempo()
    stopRenders()
    offAudio()
    mixerEngine.pause()
  }
}
