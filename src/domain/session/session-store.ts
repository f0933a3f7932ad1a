import { create } from 'zustand'
import type { WalletBasics } from '../../backend/wallet.ts'

// Declared with the backend calls that return them; re-exported for this feature's users.
export { utcDay, type WalletBasics } from '../../backend/wallet.ts'

export interface SessionUser {
  id: string
  email: string
}

/** The server's answer to the latest qualifying listen, for the '+N CUBE' the user sees. */
export interface ListenResult {
  songId: string
  /** CUBE the server credited for it: 0 once the daily cap is reached or the play was already counted. */
  credited: number
  capReached: boolean
  listensToday: number
  dailyCap: number
  /** The server's reason code: credited, daily_cap, already_credited, too_soon, below_threshold, unknown_song. */
  reason: string | null
  /** Increments per answer so a repeated figure still animates. */
  seq: number
}

export type AuthStatus = 'loading' | 'signed-out' | 'signed-in'
export type WalletStatus = 'idle' | 'loading' | 'ready' | 'error'

interface SessionState {
  /** 'loading' until supabase-js has reported the stored session (or its absence). */
  status: AuthStatus
  user: SessionUser | null
  /** Role as reported by the server (rpc is_admin); the client never infers it from the e-mail address. */
  isAdmin: boolean
  /** False until is_admin has answered for the current user. */
  roleKnown: boolean
  wallet: WalletBasics | null
  walletStatus: WalletStatus
  lastListen: ListenResult | null
  setSession: (user: SessionUser | null, isAdmin: boolean) => void
  setUser: (user: SessionUser | null) => void
  setIsAdmin: (isAdmin: boolean) => void
  setWallet: (wallet: WalletBasics) => void
  setWalletStatus: (status: WalletStatus) => void
  setLastListen: (result: Omit<ListenResult, 'seq'>) => void
}

const signedOut = {
  status: 'signed-out' as const,
  user: null,
  isAdmin: false,
  roleKnown: true,
  wallet: null,
  walletStatus: 'idle' as const,
  lastListen: null,
}

export const useSessionStore = create<SessionState>()((set, get) => ({
  status: 'loading',
  user: null,
  isAdmin: false,
  roleKnown: false,
  wallet: null,
  walletStatus: 'idle',
  lastListen: null,
  setSession: (user, isAdmin) => set(user ? { user, isAdmin, roleKnown: true, status: 'signed-in' } : signedOut),
  setUser: (user) => {
    if (!user) return set(signedOut)
    // A different account must never see the previous one's wallet or role, even for a frame.
    if (get().user?.id !== user.id)
      return set({ user, status: 'signed-in', isAdmin: false, roleKnown: false, wallet: null, walletStatus: 'idle', lastListen: null })
    set({ user, status: 'signed-in' })
  },
  setIsAdmin: (isAdmin) => set({ isAdmin: get().user ? isAdmin : false, roleKnown: true }),
  setWallet: (wallet) => set({ wallet, walletStatus: 'ready' }),
  setWalletStatus: (walletStatus) => set({ walletStatus }),
  setLastListen: (result) => set((s) => ({ lastListen: { ...result, seq: (s.lastListen?.seq ?? 0) + 1 } })),
}))
