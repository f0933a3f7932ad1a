export { LedgerTokenActivity } from './LedgerTokenActivity.tsx'
export { WalletBasicsCard } from './WalletBasicsCard.tsx'
export { relativeTime } from './token-activity.ts'
export { useDailyCap } from './useDailyCap.ts'
