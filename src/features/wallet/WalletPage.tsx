import { useEffect } from 'react'
import { WalletBasicsCard } from './WalletBasicsCard.tsx'

export default function WalletPage() {
  useEffect(() => {
    document.title = 'Crypto Wallet · CUBE Music'
  }, [])
  return (
    <section className="mx-auto max-w-4xl space-y-6 p-6">
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Crypto Wallet</h1>
        <p className="mt-1 text-muted">Connect your wallet and manage your tokens</p>
      </header>
      <WalletBasicsCard />
      <p className="text-sm text-muted" data-testid="wallet-later-note">
        Connecting an external crypto wallet, claiming rewards and the full token dashboard come in a later release; the figures above are your CUBE account on our server.
      </p>
    </section>
  )
}
