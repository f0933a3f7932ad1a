/**
 * The listening reward shown when play is pressed ('+2 CUBE per listen', 1.5 s animation).
 *
 *   useRewardStore.getState().setCreditedAmount(songId, amount)  — the backend reports what the
 *       server actually credits; it wins over every other figure.
 *   selectRewardAmount(song, rules)(state): number  — credited ?? the server's reward for the song
 *       (reward rules, src/features/listen) ?? the catalogue's ?? the rules' default reward
 *   flash(amount)  — shows the animated message; `flashKey` increments per press.
 *   startRewardFlash()  — flashes the song's amount each time play is pressed (the player store's
 *       onPlayPressed); started once per page with the other services.
 */
import { create } from 'zustand'
import type { Song } from '../../lib/catalogue/song.ts'
import { onPlayPressed } from '../playback/player-store.ts'
import { songReward, useRewardRules, type RewardRules } from './reward-rules.ts'

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
  // Set by every flash before anything shows it.
  flashAmount: 0,
  setCreditedAmount: (songId, amount) => {
    if (Number.isFinite(amount) && amount >= 0) set({ credited: { ...get().credited, [songId]: amount } })
  },
  flash: (amount) => set({ flashKey: get().flashKey + 1, flashAmount: amount }),
}))

/** Components pass the rules they subscribed to (useRewardRules), so a server answer re-renders them. */
export const rewardAmountFor = (
  song: Song | null | undefined,
  credited: Record<string, number>,
  rules: RewardRules = useRewardRules.getState().rules,
): number => (song && credited[song.id]) ?? songReward(song, rules)

export const selectRewardAmount =
  (song: Song | null | undefined, rules: RewardRules) =>
  (s: RewardState): number =>
    rewardAmountFor(song, s.credited, rules)

export const rewardMessage = (amount: number): string => `+${amount} CUBE per listen`

let stopFlash: (() => void) | null = null

/** Flashes the song's reward each time play is pressed (once per page; idempotent). */
export function startRewardFlash(): () => void {
  stopFlash ??= onPlayPressed((song) => {
    const rewards = useRewardStore.getState()
    rewards.flash(rewardAmountFor(song, rewards.credited))
  })
  return stopFlash
}
