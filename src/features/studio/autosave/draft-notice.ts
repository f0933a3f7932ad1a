import { create } from 'zustand'

/**
 * The notice that an unsaved mix came back after a reload. It is shown in the studio only (not as
 * a toast on every page), once per draft: Keep or leaving the studio acknowledges it, and the
 * draft remembers that (MixDraft.acknowledged), so later reloads restore the mix silently; Discard
 * empties the mixer, which deletes the draft.
 */
export interface RestoredMix {
  tracks: number
  project: string | null
  missing: string[]
}

interface DraftNoticeState {
  restored: RestoredMix | null
  /** The user knows this mix is kept: drafts written from now on carry that. */
  acknowledged: boolean
  show: (restored: RestoredMix) => void
  acknowledge: () => void
  /** A new mix (the mixer emptied): its first draft will be announced again after a reload. */
  forget: () => void
}

export const useDraftNotice = create<DraftNoticeState>((set) => ({
  restored: null,
  acknowledged: false,
  show: (restored) => set({ restored, acknowledged: false }),
  acknowledge: () => set({ restored: null, acknowledged: true }),
  forget: () => set({ restored: null, acknowledged: false }),
}))

export const RESTORED_NOTICE = 'Restored your unsaved mix'

/** "3 tracks of Night Drive; audio missing for Vocals." */
export function describeRestoredMix({ tracks, project, missing }: RestoredMix): string {
  const what = `${tracks} ${tracks === 1 ? 'track' : 'tracks'}${project ? ` of ${project}` : ''}`
  return missing.length ? `${what}; audio missing for ${missing.join(', ')}.` : `${what}.`
}
