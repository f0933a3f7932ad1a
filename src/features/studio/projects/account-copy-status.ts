import { create } from 'zustand'

/**
 * Where each local project's automatic upload to the account stands, for the status line beside
 * it (AccountCopyStatus.tsx); written by the account sync (studio-project-sync.ts). A project with
 * no entry has nothing under way: the account's list says whether its copy is current.
 */
export type AccountCopyPhase =
  | { phase: 'queued' }
  | { phase: 'uploading'; progress: number }
  | { phase: 'waiting' }
  | { phase: 'failed'; message: string }

interface AccountCopyStatusState {
  byId: Record<string, AccountCopyPhase>
  set: (id: string, status: AccountCopyPhase | null) => void
  /** Every upload that waited for the server is queued again (it has been reached). */
  resume: () => void
  /** Every queued or running upload now waits for the server. */
  waitAll: () => void
  clear: () => void
}

export const useAccountCopyStatus = create<AccountCopyStatusState>()((set, get) => ({
  byId: {},
  set: (id, status) => {
    const { [id]: _old, ...rest } = get().byId
    set({ byId: status ? { ...rest, [id]: status } : rest })
  },
  resume: () =>
    set({
      byId: Object.fromEntries(Object.entries(get().byId).map(([id, s]) => [id, s.phase === 'waiting' ? { phase: 'queued' } : s])),
    }),
  waitAll: () =>
    set({
      byId: Object.fromEntries(Object.entries(get().byId).map(([id, s]) => [id, s.phase === 'failed' ? s : { phase: 'waiting' }])),
    }),
  clear: () => set({ byId: {} }),
}))
