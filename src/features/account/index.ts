export { AccountChip } from './AccountChip.tsx'
export { AuthModalHost } from './AuthModalHost.tsx'
export { RailAccount } from './RailAccount.tsx'
