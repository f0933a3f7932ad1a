/**
 * Autosave of the open mix: after every change of tracks, master or the open project (debounced),
 * and at once when the page is hidden or unloaded, the mix goes to IndexedDB as the draft
 * (src/engine/project-db.ts) with the audio it needs. On start a draft left by a reload or crash is
 * put back into the mixer, and the studio says so once with Keep / Discard (draft-notice.ts).
 *
 * A mix with nothing unsaved keeps no draft: an empty mixer (after "Start fresh" or removing every
 * track) and a mix just saved as or opened from a project (that project is where it lives; a draft
 * would reopen it on every visit). Started once per page by src/app/start-services.ts.
 */
import { DEFAULT_BPM } from '../../../engine/arrangement/clip-edits.ts'
import { getMixerAudio, hasMixerAudio, putMixerAudio } from '../../../engine/mixer-audio.ts'
import { sanitizeState, type MixerState } from '../../../engine/mixer-model.ts'
import {
  clearDraft,
  getAudio,
  getDraft,
  getProject,
  saveDraft,
  type MixDraft,
  type StoredAudio,
  type StoredProject,
} from '../../../engine/project-db.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { notify } from '../../../lib/notify.ts'
import { ensureInstrumentAudio } from '../../../domain/studio/instrument-renders.ts'
import { hasUnsavedChanges, useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useDraftNotice } from './draft-notice.ts'

export const AUTOSAVE_DEBOUNCE_MS = 500
export { RESTORED_NOTICE } from './draft-notice.ts'
const NOTICE_ID = 'mix-draft'

export interface DraftDb {
  getDraft: () => Promise<MixDraft | undefined>
  saveDraft: (draft: MixDraft, audio: (id: string) => StoredAudio | undefined) => Promise<void>
  clearDraft: () => Promise<void>
  getAudio: (id: string) => Promise<StoredAudio | undefined>
  getProject: (id: string) => Promise<StoredProject | undefined>
}

const idb: DraftDb = { getDraft, saveDraft, clearDraft, getAudio, getProject }

const sameMix = (a: MixerState, b: MixerState) => JSON.stringify(sanitizeState(a)) === JSON.stringify(sanitizeState(b))

/** Resolves once the draft (if any) is back in the mixer; writes never start before that. */
export interface MixAutosave {
  stop: () => void
  restored: Promise<void>
  /** Writes what is pending now (also what pagehide does); resolves when it is stored. */
  flush: () => Promise<void>
}

export function startMixAutosave(
  options: {
    db?: DraftDb
    debounceMs?: number
    target?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { document?: Pick<Document, 'visibilityState'> }
  } = {},
): MixAutosave {
  const db = options.db ?? idb
  const debounceMs = options.debounceMs ?? AUTOSAVE_DEBOUNCE_MS
  const target = options.target ?? (typeof window !== 'undefined' ? window : undefined)
  let ready = false
  let stopped = false
  let dirty = false
  /** Whether a draft may exist in the database (so an empty mix deletes only when there is one). */
  let draftStored = true
  let timer: ReturnType<typeof setTimeout> | undefined
  let writing: Promise<void> = Promise.resolve()
  let warned = false

  const write = (): Promise<void> => {
    clearTimeout(timer)
    timer = undefined
    if (!ready || !dirty) return writing
    dirty = false
    const s = useMixerStore.getState()
    const keep = s.tracks.length > 0 && hasUnsavedChanges(s)
    const draft: MixDraft = {
      state: { tracks: s.tracks, master: s.master, tempo: s.tempo },
      project: s.project,
      savedAt: Date.now(),
      acknowledged: useDraftNotice.getState().acknowledged,
    }
    // One write at a time, in order: the last one written is the newest mix.
    writing = writing.then(async () => {
      try {
        if (keep) {
          // An instrument track's newest render may still be on its way: the draft waits for it.
          await Promise.all(draft.state.tracks.map((t) => ensureInstrumentAudio(t, draft.state.tempo ?? DEFAULT_BPM)))
          await db.saveDraft(draft, getMixerAudio)
          draftStored = true
        } else if (draftStored) {
          await db.clearDraft()
          draftStored = false
        }
      } catch (err) {
        console.warn('mix autosave failed', err)
        if (!warned) notify.error('Your mix could not be autosaved', { id: NOTICE_ID, description: errorMessage(err) })
        warned = true
      }
    })
    return writing
  }

  const schedule = () => {
    dirty = true
    clearTimeout(timer)
    timer = setTimeout(() => void write(), debounceMs)
  }
  const unsubscribeMixer = useMixerStore.subscribe((s, prev) => {
    if (
      s.tracks === prev.tracks &&
      s.master === prev.master &&
      s.tempo === prev.tempo &&
      s.project === prev.project &&
      s.clean === prev.clean
    )
      return
    // An emptied mixer ends this mix: the next one is announced after a reload again.
    if (s.tracks.length === 0 && prev.tracks.length > 0) useDraftNotice.getState().forget()
    schedule()
  })
  const unsubscribeNotice = useDraftNotice.subscribe((s, prev) => {
    if (s.acknowledged !== prev.acknowledged) schedule()
  })
  const unsubscribe = () => {
    unsubscribeMixer()
    unsubscribeNotice()
  }
  const onHide = () => {
    if (!target?.document || target.document.visibilityState === 'hidden') void write()
  }
  const onPageHide = () => void write()
  target?.addEventListener('pagehide', onPageHide)
  target?.addEventListener('visibilitychange', onHide)

  // Then one write settles the database on what the mixer holds: the restored draft is kept, a
  // stale one (already saved, or its audio gone) is cleared.
  const restored = restore(db).finally(() => {
    ready = true
    dirty = true
    if (!stopped) void write()
  })

  return {
    restored,
    flush: write,
    stop: () => {
      stopped = true
      unsubscribe()
      clearTimeout(timer)
      target?.removeEventListener('pagehide', onPageHide)
      target?.removeEventListener('visibilitychange', onHide)
    },
  }
}

async function restore(db: DraftDb): Promise<void> {
  let draft: MixDraft | undefined
  try {
    draft = await db.getDraft()
  } catch (err) {
    console.warn('mix draft unreadable', err)
    return
  }
  if (!draft) return
  const state = sanitizeState(draft.state)
  if (state.tracks.length === 0) return
  // Saved right before the reload (the clearing write may not have made it): nothing was lost.
  if (draft.project) {
    const saved = await db.getProject(draft.project.id).catch(() => undefined)
    if (saved && sameMix(saved.state, state)) return
  }
  const missing: string[] = []
  for (const t of state.tracks) {
    if (hasMixerAudio(t.audioId)) continue
    const a = await db.getAudio(t.audioId).catch(() => undefined)
    if (a) putMixerAudio(a)
    // An instrument track's audio is its notes' render: made again when it is not stored.
    else if (t.instrument) await ensureInstrumentAudio(t, state.tempo ?? DEFAULT_BPM).catch(() => missing.push(t.name))
    else missing.push(t.name)
  }
  const kept = { ...state, tracks: state.tracks.filter((t) => hasMixerAudio(t.audioId)) }
  const mixer = useMixerStore.getState()
  // The user already started something new while the draft was read: theirs wins.
  if (mixer.tracks.length > 0 || mixer.history.past.length > 0 || kept.tracks.length === 0) return
  mixer.restore(kept, draft.project)
  const restored = { tracks: kept.tracks.length, project: draft.project?.name ?? null, missing }
  if (draft.acknowledged && missing.length === 0) useDraftNotice.getState().acknowledge()
  else useDraftNotice.getState().show(restored)
}
