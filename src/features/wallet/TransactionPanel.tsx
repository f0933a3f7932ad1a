import { Link } from 'react-router-dom'
import type { BlockchainConfig } from '../../backend/web3.ts'
import { useChainTransaction } from './useChainTransaction.ts'

/** Where 'View on Blockchain' goes: the chain's explorer, or this app's page for the embedded chain. */
export function explorerHref(chain: BlockchainConfig | undefined, hash: string, blockchain: string): string {
  if (chain?.explorer_url) return `${chain.explorer_url.replace(/\/$/, '')}/tx/${hash}`
  return `/app/wallet?chain=${encodeURIComponent(blockchain)}&tx=${encodeURIComponent(hash)}`
}

/** The in-app transaction page: the receipt and the token read back from the chain itself. */
export function TransactionPanel({ chain, hash }: { chain: string; hash: string }) {
  const { tx, error } = useChainTransaction(chain, hash)
  const row = (label: string, value: string | number | null | undefined, testId: string) => (
    <div className="grid grid-cols-[9rem_1fr] gap-2">
      <dt className="text-muted">{label}</dt>
      <dd className="break-all font-mono" data-testid={testId}>
        {value ?? '—'}
      </dd>
    </div>
  )
  return (
    <section className="panel space-y-3 p-5" aria-labelledby="tx-title" data-testid="tx-panel">
      <h2 id="tx-title" className="font-display text-lg font-bold text-primary">
        Transaction on {chain} (local chain)
      </h2>
      {error && (
        <p role="alert" className="text-red-400">
          {error}
        </p>
      )}
      {!tx && !error && <p className="text-muted">Reading the receipt from the chain…</p>}
      {tx && (
        <dl className="space-y-1 text-sm">
          {row('Hash', tx.hash, 'tx-hash')}
          {row('Status', tx.status, 'tx-status')}
          {row('Block', tx.blockNumber, 'tx-block')}
          {row('From (minter)', tx.from, 'tx-from')}
          {row('Contract', tx.to, 'tx-contract')}
          {row('Token id', tx.tokenId, 'tx-token')}
          {row('ownerOf', tx.owner, 'tx-owner')}
          {row('tokenURI', tx.tokenUri, 'tx-uri')}
          {row('Royalty (per 10 000)', tx.royalty ? `${tx.royalty.amount} → ${tx.royalty.receiver}` : null, 'tx-royalty')}
          {row('Gas used', tx.gasUsed, 'tx-gas')}
        </dl>
      )}
      <Link to="/app/wallet" className="text-sm text-primary underline">
        Back to the wallet
      </Link>
    </section>
  )
}
