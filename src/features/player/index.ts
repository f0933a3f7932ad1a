export { MiniPlayer } from './MiniPlayer.tsx'
export { TokenActivity } from './TokenActivity.tsx'
export { type DeckLike, type PlayerState, attachDeck, usePlayerStore } from './player-store.ts'
export { rewardAmountFor, useRewardStore } from './reward-store.ts'
