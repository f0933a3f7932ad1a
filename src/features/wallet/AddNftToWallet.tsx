import { useState } from 'react'
import type { BlockchainConfig } from '../../backend/web3.ts'
import { notify } from '../../lib/notify.ts'
import { addNftToWallet } from './browser-wallet.ts'
import { NoWalletProviderError } from './wallet-connect-machine.ts'

/** "Add to my wallet": the NFT's network and the token itself, in the user's own browser wallet. */
export function AddNftToWallet({ chain, tokenId }: { chain: BlockchainConfig; tokenId: string }) {
  const [busy, setBusy] = useState(false)
  const add = async () => {
    setBusy(true)
    try {
      await addNftToWallet(chain, tokenId)
      notify.success('Added to your wallet', { description: `${chain.display_name} and token #${tokenId} are in your wallet now.` })
    } catch (e) {
      const code = (e as { code?: number }).code
      if (e instanceof NoWalletProviderError) notify.error('MetaMask Not Found', { description: e.message })
      else if (code === 4001) notify('Not added', { description: 'You declined in your wallet; nothing changed.' })
      else notify.error('Could not add it to your wallet', { description: e instanceof Error ? e.message : String(e) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" className="text-primary underline disabled:opacity-60" disabled={busy} onClick={() => void add()}>
      {busy ? 'Asking your wallet…' : 'Add to my wallet'}
    </button>
  )
}
