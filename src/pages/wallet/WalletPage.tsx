import { ComingLater } from '../../components/ComingLater.tsx'

export default function WalletPage() {
  return <ComingLater title="Crypto Wallet" />
}
