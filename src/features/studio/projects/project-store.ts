/**
 * Saved mixer projects (IndexedDB via src/engine/project-db.ts): list, save the open mixer, reopen,
 * rename, delete. Audio is written once per audioId and shared between projects that use it.
 */
import { DEFAULT_BPM } from '../../../engine/arrangement/clip-edits.ts'
import { create } from 'zustand'
import { dropUnusedAudio, getMixerAudio, hasMixerAudio, putMixerAudio } from '../../../engine/mixer-audio.ts'
import { mixDuration, sanitizeState } from '../../../engine/mixer-model.ts'
import {
  clearDraft,
  deleteProject,
  getAudio,
  getProject,
  listProjects,
  renameProject,
  saveProject,
  type StoredProject,
} from '../../../engine/project-db.ts'
import { hasUnsavedChanges, mixerSnapshot, useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { emitProjectEvent } from './project-events.ts'
import { ensureInstrumentAudio, instrumentsRendered } from '../../../domain/studio/instrument-renders.ts'
import { STUDIO_PROJECT_NAME_MAX } from '../../../backend/studio-projects.ts'

/** Project names: 1–120 characters after trimming, as public.studio_projects checks. */
export const MAX_PROJECT_NAME = STUDIO_PROJECT_NAME_MAX
export const PROJECT_NAME_TOO_LONG = `Project name must be at most ${MAX_PROJECT_NAME} characters`

export type ProjectSummary = Pick<StoredProject, 'id' | 'name' | 'createdAt' | 'updatedAt'> & { trackCount: number }

interface ProjectStore {
  projects: ProjectSummary[]
  loaded: boolean
  refresh: () => Promise<void>
  saveCurrent: () => Promise<ProjectSummary>
  open: (id: string) => Promise<void>
  rename: (id: string, name: string) => Promise<void>
  remove: (id: string) => Promise<void>
}

const summary = (p: StoredProject): ProjectSummary => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
  trackCount: p.state.tracks.length,
})

export function defaultProjectName(existing: readonly { name: string }[]): string {
  let n = existing.length + 1
  while (existing.some((p) => p.name === `Project ${n}`)) n++
  return `Project ${n}`
}

export const useProjectStore = create<ProjectStore>()((set, get) => ({
  projects: [],
  loaded: false,
  refresh: async () => {
    const all = await listProjects()
    set({ projects: all.map(summary), loaded: true })
  },
  saveCurrent: async () => {
    // A project is stored with its instrument tracks' renders: wait for any still being made.
    await instrumentsRendered()
    const mixer = useMixerStore.getState()
    const now = Date.now()
    const existing = mixer.project ? await getProject(mixer.project.id) : undefined
    const project: StoredProject = {
      id: existing?.id ?? crypto.randomUUID(),
      name: existing?.name ?? mixer.project?.name ?? defaultProjectName(get().projects),
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      state: mixerSnapshot(),
      copyOf: existing?.copyOf,
    }
    await saveProject(project, getMixerAudio)
    const { id, name, createdAt, updatedAt } = project
    emitProjectEvent({
      kind: 'saved',
      id,
      name,
      createdAt,
      updatedAt,
      trackCount: project.state.tracks.length,
      durationSeconds: mixDuration(project.state),
    })
    useMixerStore.getState().markSaved(project.state, { id: project.id, name: project.name })
    // The autosaved draft is now the saved project: drop it before saying "saved", so a reload right
    // after cannot bring it back (the autosave's own clearing write is debounced). Only if nothing
    // changed meanwhile: a newer edit is the draft's to keep.
    if (!hasUnsavedChanges(useMixerStore.getState()))
      await clearDraft().catch((err: unknown) => console.warn('draft not cleared after save', err))
    await get().refresh()
    return summary(project)
  },
  open: async (id) => {
    const p = await getProject(id)
    if (!p) throw new Error('This project no longer exists.')
    const state = sanitizeState(p.state)
    for (const t of state.tracks) {
      if (hasMixerAudio(t.audioId)) continue
      const a = await getAudio(t.audioId)
      if (!a && t.instrument) {
        await ensureInstrumentAudio(t, state.tempo ?? DEFAULT_BPM)
        continue
      }
      if (!a) throw new Error(`The audio of track "${t.name}" is missing from this browser's storage.`)
      putMixerAudio(a)
    }
    dropUnusedAudio(new Set([...state.tracks, ...useMixerStore.getState().tracks].map((t) => t.audioId)))
    useMixerStore.getState().load(state, { id: p.id, name: p.name })
  },
  rename: async (id, name) => {
    const clean = name.trim().replace(/\s+/g, ' ')
    if (!clean) throw new Error('A project needs a name.')
    if (clean.length > MAX_PROJECT_NAME) throw new Error(PROJECT_NAME_TOO_LONG)
    await renameProject(id, clean)
    emitProjectEvent({ kind: 'renamed', id, name: clean })
    const open = useMixerStore.getState().project
    if (open?.id === id) useMixerStore.getState().setProject({ id, name: clean })
    await get().refresh()
  },
  remove: async (id) => {
    await deleteProject(id)
    emitProjectEvent({ kind: 'deleted', id })
    if (useMixerStore.getState().project?.id === id) useMixerStore.getState().setProject(null)
    await get().refresh()
  },
}))
