import { create } from 'zustand'

export interface SessionUser {
  id: string
  email: string
}

interface SessionState {
  user: SessionUser | null
  /** Role as reported by the server; the client never infers it from the e-mail address. */
  isAdmin: boolean
  setSession: (user: SessionUser | null, isAdmin: boolean) => void
}

export const useSessionStore = create<SessionState>()((set) => ({
  user: null,
  isAdmin: false,
  setSession: (user, isAdmin) => set({ user, isAdmin: user ? isAdmin : false }),
}))
