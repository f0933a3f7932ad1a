/**
 * Play together's transport in the studio: the mixer engine, started at the audio context time
 * heard at a page instant (src/engine/context-clock.ts), with the mix as the store holds it.
 */
import { getAudioContext } from '../../engine/audio-context.ts'
import { contextTimeAt } from '../../engine/context-clock.ts'
import { mixerEngine } from '../../engine/mixer-engine.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { mixerSnapshot } from './mixer-store.ts'
import type { SharedTransport } from './play-together.ts'

const failed = (e: unknown) => notify.error('Playback failed', { description: errorMessage(e) })

export const mixerTransport: SharedTransport = {
  playAt(seconds, atMs) {
    // atMs is on localNow's clock (timeOrigin + performance.now): back to performance.now's.
    const at = contextTimeAt(getAudioContext(), atMs - performance.timeOrigin)
    mixerEngine.playAt(mixerSnapshot(), seconds, at).catch(failed)
  },
  stopAt(seconds) {
    mixerEngine.pause()
    mixerEngine.seek(seconds, mixerSnapshot()).catch(failed)
  },
  position: () => mixerEngine.position(),
}
