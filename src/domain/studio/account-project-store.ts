import { create } from 'zustand'
import type { StudioProjectMeta } from '../../backend/studio-projects.ts'

/**
 * The signed-in user's studio projects as the server lists them (metadata only), filled and kept
 * current by src/features/studio/projects/studio-project-sync.ts. Empty and 'idle' for visitors.
 */
export type AccountProjectsStatus = 'idle' | 'loading' | 'ready' | 'error'

interface AccountProjectState {
  userId: string | null
  projects: StudioProjectMeta[]
  status: AccountProjectsStatus
  setLoading: (userId: string) => void
  setProjects: (userId: string, projects: StudioProjectMeta[]) => void
  setError: (userId: string) => void
  /** Inserts or replaces one project and keeps the newest-first order. */
  put: (userId: string, project: StudioProjectMeta) => void
  patch: (userId: string, id: string, change: Partial<StudioProjectMeta>) => void
  drop: (userId: string, id: string) => void
  clear: () => void
}

const newestFirst = (list: StudioProjectMeta[]) => [...list].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))

export const useAccountProjectStore = create<AccountProjectState>()((set, get) => {
  // Answers for a user who has since signed out (or switched) are dropped.
  const mine = (userId: string) => get().userId === userId
  return {
    userId: null,
    projects: [],
    status: 'idle',
    setLoading: (userId) => set(mine(userId) ? { status: 'loading' } : { userId, projects: [], status: 'loading' }),
    setProjects: (userId, projects) => mine(userId) && set({ projects: newestFirst(projects), status: 'ready' }),
    setError: (userId) => mine(userId) && set({ status: 'error' }),
    put: (userId, project) =>
      mine(userId) && set({ projects: newestFirst([...get().projects.filter((p) => p.id !== project.id), project]) }),
    patch: (userId, id, change) =>
      mine(userId) && set({ projects: newestFirst(get().projects.map((p) => (p.id === id ? { ...p, ...change } : p))) }),
    drop: (userId, id) => mine(userId) && set({ projects: get().projects.filter((p) => p.id !== id) }),
    clear: () => set({ userId: null, projects: [], status: 'idle' }),
  }
})
