export { LedgerTokenActivity } from './LedgerTokenActivity.tsx'
export { WalletBasicsCard } from './WalletBasicsCard.tsx'
export { CreatorEarningsCard } from './CreatorEarningsCard.tsx'
