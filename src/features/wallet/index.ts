export { LedgerTokenActivity } from './LedgerTokenActivity.tsx'
export { WalletBasicsCard } from './WalletBasicsCard.tsx'
