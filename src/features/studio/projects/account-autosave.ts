/**
 * For a signed-in creator, an open project that is in their account is saved by itself: QUIET_MS
 * after the last edit of its mix, the project is saved as Save Project would save it, so its
 * metadata and then its full copy follow to the account (studio-project-sync.ts). A mix that was
 * never saved as a project stays the autosaved draft (mix-autosave.ts) until it is; so does a
 * project shared with this creator (it is not theirs to save) and a mix in a live session (its
 * document is the shared one).
 *
 *   startAccountAutosave({ store?, eligible, save, quietMs? }) → stop()
 */
import { hasUnsavedChanges, useMixerStore } from '../../../domain/studio/mixer-store.ts'

export const QUIET_MS = 2000

type MixerStoreApi = Pick<typeof useMixerStore, 'getState' | 'subscribe'>

export interface AccountAutosaveOptions {
  store?: MixerStoreApi
  /** Whether the open project may be saved by itself now (signed in, theirs, listed, not live). */
  eligible: (projectId: string) => boolean
  /** Saves the open mix as its project (the project store's saveCurrent). */
  save: () => Promise<unknown>
  quietMs?: number
}

export function startAccountAutosave(options: AccountAutosaveOptions): () => void {
  const store = options.store ?? useMixerStore
  const quietMs = options.quietMs ?? QUIET_MS
  let timer: ReturnType<typeof setTimeout> | null = null
  let saving = false
  let again = false

  const due = () => {
    const s = store.getState()
    return s.project !== null && s.tracks.length > 0 && hasUnsavedChanges(s) && options.eligible(s.project.id)
  }
  const run = async () => {
    timer = null
    if (!due()) return
    if (saving) {
      again = true
      return
    }
    saving = true
    try {
      await options.save()
    } catch (error) {
      // The draft still holds the mix; the next edit tries again.
      console.warn('project autosave failed', error)
    } finally {
      saving = false
    }
    if (again) {
      again = false
      schedule()
    }
  }
  const schedule = () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => void run(), quietMs)
  }
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.tracks === prev.tracks && s.master === prev.master && s.tempo === prev.tempo) return
    if (due()) schedule()
  })
  return () => {
    unsubscribe()
    if (timer) clearTimeout(timer)
  }
}
