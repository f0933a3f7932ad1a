/**
 * Play together's transport in the studio: the mixer engine, started at the audio context time
 * heard at a page instant (src/engine/context-clock.ts) with the mix as the store holds it, and kept in
 * step with the page's clock after each shared start (keep-in-step.ts) until paused or released.
 */
import { getAudioContext } from '../../engine/audio-context.ts'
import { contextTimeHeardAt } from '../../engine/context-clock.ts'
import { mixerEngine } from '../../engine/mixer-engine.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { keepInStep, type Keeper, type KeepInStepIo } from './keep-in-step.ts'
import { mixerSnapshot } from './mixer-store.ts'
import type { SharedTransport } from './play-together.ts'

const failed = (e: unknown) => notify.error('Playback failed', { description: errorMessage(e) })

const engineIo: KeepInStepIo = {
  perfNow: () => performance.now(),
  contextTimeAt: (perfMs) => contextTimeHeardAt(getAudioContext(), perfMs),
  isPlaying: () => mixerEngine.isPlaying(),
  positionAt: (ctxTime) => mixerEngine.timelinePositionAt(ctxTime),
  restart: (seconds, ctxTime) => void mixerEngine.playAt(mixerSnapshot(), seconds, ctxTime).catch(failed),
}

let keeper: Keeper | null = null
/** Which start the keeper is for: a start or stop that came since makes an older start's keeper moot. */
let generation = 0
const letGo = () => {
  generation++
  keeper?.stop()
  keeper = null
}

export const mixerTransport: SharedTransport = {
  playAt(seconds, atMs) {
    // atMs is on localNow's clock (timeOrigin + performance.now): back to performance.now's.
    const perfMs = atMs - performance.timeOrigin
    // Heard at that instant: the start is earlier by this device's output latency.
    const at = contextTimeHeardAt(getAudioContext(), perfMs)
    letGo()
    const mine = generation
    mixerEngine
      .playAt(mixerSnapshot(), seconds, at)
      .then(() => {
        if (mine === generation && mixerEngine.isPlaying()) keeper = keepInStep(engineIo, { perfMs, ctxTime: at })
      })
      .catch(failed)
  },
  stopAt(seconds) {
    letGo()
    mixerEngine.pause()
    mixerEngine.seek(seconds, mixerSnapshot()).catch(failed)
  },
  position: () => mixerEngine.position(),
  playing: () => mixerEngine.isPlaying(),
  release: letGo,
}
