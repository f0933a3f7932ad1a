import { create } from 'zustand'
/** Which tab the sign-in dialog opens on. */
export type AuthTab = 'login' | 'register'

/** Lets any page (the profile's preview notice, the wallet card) open the sidebar's login dialog. */
export const useAuthModalStore = create<{ openTab: AuthTab | null; open: (tab: AuthTab) => void; close: () => void }>()((set) => ({
  openTab: null,
  open: (tab) => set({ openTab: tab }),
  close: () => set({ openTab: null }),
}))
