/**
 * The listening reward shown when play is pressed ('+2 CUBE per listen', 1.5 s animation).
 *
 *   useRewardStore.getState().setCreditedAmount(songId, amount)  — the backend reports what the
 *       server actually credits; it wins over the catalogue figure.
 *   selectRewardAmount(song)(state): number  — server figure ?? song.reward ?? 2
 *   flash(amount)  — shows the animated message; `flashKey` increments per press.
 */
import { create } from 'zustand'
import type { Song } from '../../lib/catalogue/song.ts'

export const DEFAULT_LISTEN_REWARD = 2
export const REWARD_ANIMATION_MS = 1500

interface RewardState {
  credited: Record<string, number>
  flashKey: number
  flashAmount: number
  setCreditedAmount: (songId: string, amount: number) => void
  flash: (amount: number) => void
}

export const useRewardStore = create<RewardState>()((set, get) => ({
  credited: {},
  flashKey: 0,
  flashAmount: DEFAULT_LISTEN_REWARD,
  setCreditedAmount: (songId, amount) => {
    if (Number.isFinite(amount) && amount >= 0) set({ credited: { ...get().credited, [songId]: amount } })
  },
  flash: (amount) => set({ flashKey: get().flashKey + 1, flashAmount: amount }),
}))

export const rewardAmountFor = (song: Song | null | undefined, credited: Record<string, number>): number =>
  (song && credited[song.id]) ?? song?.reward ?? DEFAULT_LISTEN_REWARD

export const selectRewardAmount =
  (song: Song | null | undefined) =>
  (s: RewardState): number =>
    rewardAmountFor(song, s.credited)

export const rewardMessage = (amount: number): string => `+${amount} CUBE per listen`
