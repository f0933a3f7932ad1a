import { burnRemix, completeRemix, refundRemix } from '../../backend/remix.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { readPending, sameRemix } from './pending-attempt.ts'
import { createRemixBurnMachine } from './remix-burn-machine.ts'
import { renderRemixWav, saveRemixToLibrary } from './remix-service.ts'
import { useRemixStore } from './remix-store.ts'

/**
 * The app's wiring of the remix burn machine: the server's burn, complete and refund, the render
 * into the Library, and the attempt key (a pending attempt for the same source and settings keeps
 * its key, so the server never charges twice). `onRendered` receives each finished remix.
 */
export function createRemixBurnRuntime(onRendered: (song: Song, wav: Blob) => void) {
  return createRemixBurnMachine({
    newAttemptKey: () => {
      const s = useRemixStore.getState()
      const p = readPending(useSessionStore.getState().user?.id)
      return p && s.source && sameRemix(p, s.source.ref, s.settings) ? p.key : crypto.randomUUID()
    },
    burn: (src, key) => burnRemix(src, key),
    render: async ({ remixId, signal, onProgress }) => {
      const wav = await renderRemixWav({ signal, onProgress })
      onRendered(await saveRemixToLibrary(wav, remixId), wav)
      return wav
    },
    complete: completeRemix,
    refund: refundRemix,
  })
}
