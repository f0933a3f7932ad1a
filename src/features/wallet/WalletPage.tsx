import { CreatorEarningsCard } from './CreatorEarningsCard.tsx'
import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import type { BlockchainConfig, NftRow } from '../../backend/web3.ts'
import { notify } from '../../lib/notify.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { CompactPlayer } from './CompactPlayer.tsx'
import { LedgerTokenActivity } from './LedgerTokenActivity.tsx'
import { rarityOf, summariseRewards } from './rewards-summary.ts'
import { Tabs } from './Tabs.tsx'
import { AddNftToWallet } from './AddNftToWallet.tsx'
import { walletRpcUrl } from './browser-wallet.ts'
import { explorerHref, TransactionPanel } from './TransactionPanel.tsx'
import { useRewardClaim } from './useRewardClaim.ts'
import { useWalletConnect } from './useWalletConnect.ts'
import { useWalletData } from './useWalletData.ts'
import { WalletBasicsCard } from './WalletBasicsCard.tsx'
import { FIGURE_LABELS } from '../../domain/economy/figure-labels.ts'
import { claimLockedReason } from '../../domain/economy/trust.ts'
import { useTrustStatus } from '../../domain/economy/useTrustStatus.ts'
import { loadWalletState, shortenAddress, WALLET_CHAINS, type WalletChain } from './wallet-state.ts'

const MINT_COST = 100
const REASON_LABEL: Record<string, string> = {
  listen: 'Listening',
  share: 'Sharing',
  comment: 'Comments',
  reply: 'Comments',
  like: 'Comments',
  claim: 'Claimed listening',
  welcome: 'Welcome',
  wallet_welcome: 'Wallet welcome',
  mint_refund: 'Mint refunds',
}

// Visitors: the reference's sample figures, labelled as a preview.
const PREVIEW = {
  daily: 45,
  weekly: 253,
  total: 1280,
  days: [20, 35, 28, 55, 40, 30, 45],
  sources: [
    ['Listening', 35],
    ['Sharing', 25],
    ['Comments', 20],
    ['Creation', 20],
  ] as const,
}

function ConnectView({ onBrowser, onSocial, busy }: { onBrowser: () => void; onSocial: () => void; busy: string | null }) {
  return (
    <div className="space-y-3" data-testid="wallet-connect-view">
      <p className="text-sm text-muted">
        Connect a wallet to prove the address is yours (you sign a one-time message; no transaction, no fee), or use your CUBE account as
        your wallet.
      </p>
      <p className="text-xs text-muted">
        No browser wallet? Social Login gives your account an address of its own that CUBE Music keeps for you: rewards, claims and NFTs
        work the same, and you can connect MetaMask later.
      </p>
      <button
        type="button"
        className="w-full rounded-md bg-primary px-4 py-2 font-semibold text-bg disabled:opacity-60"
        onClick={onBrowser}
        disabled={busy !== null}
        data-testid="connect-browser"
      >
        {busy ?? 'Browser Wallet (MetaMask)'}
      </button>
      <button
        type="button"
        className="w-full rounded-md border border-primary px-4 py-2 font-semibold text-primary"
        onClick={onSocial}
        disabled={busy !== null}
        data-testid="connect-social"
      >
        Social Login (CUBE account)
      </button>
    </div>
  )
}

function NftDetail({ nft, chains }: { nft: NftRow; chains: BlockchainConfig[] }) {
  const chain = chains.find((c) => c.name === nft.blockchain)
  const href = explorerHref(chain, nft.transaction_id, nft.blockchain)
  return (
    <dl className="mt-3 space-y-1 rounded-md border border-line p-3 text-sm" data-testid="nft-detail">
      <div>
        <dt className="inline text-muted">Name: </dt>
        <dd className="inline">{nft.metadata.name}</dd>
      </div>
      <div>
        <dt className="inline text-muted">Artist: </dt>
        <dd className="inline">{nft.metadata.attributes?.find((a) => a.trait_type === 'Artist')?.value ?? 'You'}</dd>
      </div>
      <div>
        <dt className="inline text-muted">Token id: </dt>
        <dd className="inline font-mono" data-testid="nft-token-id">
          #{nft.token_id}
        </dd>
      </div>
      <div>
        <dt className="inline text-muted">Minted: </dt>
        <dd className="inline">{new Date(nft.minted_at).toLocaleDateString()}</dd>
      </div>
      <div>
        <dt className="inline text-muted">Rarity: </dt>
        <dd className="inline" data-testid="nft-rarity">
          {rarityOf(nft.token_id)}
        </dd>
      </div>
      <div>
        <dt className="inline text-muted">Chain: </dt>
        <dd className="inline">{chain?.display_name ?? nft.blockchain}</dd>
      </div>
      <div>
        <dt className="inline text-muted">Royalties: </dt>
        <dd className="inline" data-testid="nft-royalties">
          {nft.royalties} %
        </dd>
      </div>
      <div className="flex flex-wrap gap-4">
        {chain && walletRpcUrl(chain, window.location.origin) && <AddNftToWallet chain={chain} tokenId={String(nft.token_id)} />}
        {href.startsWith('/') ? (
          <Link to={href} className="text-primary underline">
            View on Blockchain
          </Link>
        ) : (
          <a href={href} target="_blank" rel="noreferrer" className="text-primary underline">
            View on Blockchain
          </a>
        )}
      </div>
    </dl>
  )
}

function NftGrid({ nfts, chains }: { nfts: NftRow[]; chains: BlockchainConfig[] }) {
  const [selected, setSelected] = useState<string | null>(null)
  if (nfts.length === 0) {
    return (
      <div className="py-6 text-center" data-testid="nft-empty">
        <p className="font-semibold">You don't have any NFTs yet</p>
        <p className="text-sm text-muted">
          Mint your first NFT in the{' '}
          <Link to="/app/mint" className="text-primary underline">
            NFT Minting Studio
          </Link>
        </p>
      </div>
    )
  }
  const current = nfts.find((n) => n.id === selected)
  return (
    <div>
      <ul className="grid grid-cols-2 gap-3" data-testid="nft-grid">
        {nfts.map((n) => (
          <li key={n.id}>
            <button
              type="button"
              aria-pressed={n.id === selected}
              onClick={() => setSelected(n.id === selected ? null : n.id)}
              className="w-full rounded-md border border-line p-2 text-left hover:border-primary"
            >
              <img
                src={n.metadata.image}
                alt=""
                className="aspect-square w-full rounded object-cover"
                onError={(e) => ((e.currentTarget as HTMLImageElement).src = '/favicon.svg')}
              />
              <span className="mt-1 block truncate text-sm font-semibold">{n.metadata.name}</span>
              <span className="block text-xs text-muted">
                #{n.token_id} · {rarityOf(n.token_id)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {current && <NftDetail nft={current} chains={chains} />}
    </div>
  )
}

function BarChart({ days, preview }: { days: { day: string; amount: number }[]; preview: boolean }) {
  const max = Math.max(1, ...days.map((d) => d.amount))
  return (
    <figure aria-label={preview ? 'Weekly earnings (preview)' : 'Your earnings over the last 7 days'} data-testid="rewards-chart">
      <div className="flex h-32 items-end gap-2">
        {days.map((d) => (
          <div key={d.day} className="flex flex-1 flex-col items-center justify-end gap-1">
            <span className="text-xs text-fg/80" data-testid="chart-value">
              {d.amount}
            </span>
            <div
              className="w-full rounded-t bg-gradient-to-t from-primary to-secondary"
              style={{ height: `${(d.amount / max) * 100}%`, minHeight: 2 }}
            />
            <span className="text-xs text-muted">{d.day.slice(5)}</span>
          </div>
        ))}
      </div>
    </figure>
  )
}

export default function WalletPage() {
  useEffect(() => {
    document.title = 'Crypto Wallet · CUBE Music'
  }, [])
  const [params] = useSearchParams()
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const balance = useSessionStore((s) => s.wallet?.balance ?? null)
  const openAuth = useAuthModalStore((s) => s.open)
  const wc = useWalletConnect()
  const data = useWalletData()
  const [chain, setChain] = useState<WalletChain>(() => loadWalletState().selectedChain)
  const { claiming, claim: claimRewards, unlinkAddress } = useRewardClaim()
  const trust = useTrustStatus()
  const claimLocked = claimLockedReason(trust)
  const tx = params.get('tx')
  const txChain = params.get('chain')

  const busy = wc.state.matches('connecting')
    ? 'Connecting…'
    : wc.state.matches('verifying')
      ? 'Sign the message in your wallet…'
      : wc.state.matches('linkingAccount')
        ? 'Setting up your account wallet…'
        : null
  const connected = wc.connected
  const summary = summariseRewards(data.ledger)
  const claimable = data.claim?.claimable ?? 0

  const claim = () => claimRewards(claimable)
  const removeAddress = async () => {
    await unlinkAddress()
    wc.disconnect()
    notify.success('Address removed', { description: 'This address is no longer linked to your account.' })
  }

  const prompt = (text: string) => (
    <p className="py-6 text-center text-muted" data-testid="connect-prompt">
      {text}
    </p>
  )
  const connectView = signedIn ? (
    <ConnectView onBrowser={() => wc.send({ type: 'BROWSER' })} onSocial={() => wc.send({ type: 'SOCIAL' })} busy={busy} />
  ) : (
    <div className="space-y-3" data-testid="wallet-connect-view">
      <p className="text-sm text-muted">Sign in first: your wallet is linked to your CUBE account.</p>
      <button type="button" className="w-full rounded-md bg-primary px-4 py-2 font-semibold text-bg" onClick={() => openAuth('login')}>
        Login / Register
      </button>
    </div>
  )

  const walletTab = (
    <div className="space-y-3" data-testid="wallet-tab">
      <p className="text-sm text-muted">Address</p>
      <p className="font-mono" data-testid="wallet-address" title={wc.state.context.address ?? undefined}>
        {wc.state.context.address ? shortenAddress(wc.state.context.address) : 'CUBE account (social login)'}
      </p>
      {wc.state.context.method === 'social' && (
        <p className="text-xs text-muted" data-testid="account-wallet-note">
          Your CUBE account's own address, kept by CUBE Music for you (Social Login). NFTs you mint go here.
        </p>
      )}
      {wc.state.context.needsReverify && (
        <div role="alert" className="rounded-md border border-yellow-500/60 p-2 text-sm">
          Your wallet switched to another address.{' '}
          <button type="button" className="underline" onClick={() => wc.send({ type: 'BROWSER' })}>
            Verify again
          </button>
        </div>
      )}
      {wc.state.context.method === 'social' ? (
        // The account's own address lives on one chain: a switch to other chains would not apply to it.
        <p className="text-sm" data-testid="account-wallet-chain">
          <span className="text-muted">Chain: </span>CUBE chain (Ethereum-compatible), where your NFTs are minted
        </p>
      ) : (
        <label className="block text-sm">
          <span className="text-muted">Chain</span>
          <select
            className="mt-1 w-full rounded-md border border-line bg-bg p-2"
            value={chain}
            onChange={(e) => {
              const c = e.target.value as WalletChain
              setChain(c)
              wc.setChain(c)
            }}
            data-testid="chain-select"
          >
            {WALLET_CHAINS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      )}
      <p className="text-sm text-muted">CUBE balance</p>
      <p className="font-display text-2xl font-bold text-primary" data-testid="wallet-cube-balance">
        {balance ?? '...'} CUBE
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="rounded-md border border-line px-3 py-1.5" onClick={wc.disconnect} data-testid="disconnect">
          Disconnect Wallet
        </button>
        {wc.state.context.method === 'browser' && (
          <button type="button" className="rounded-md border border-red-500/60 px-3 py-1.5 text-red-400" onClick={removeAddress}>
            Remove this address from my account
          </button>
        )}
      </div>
    </div>
  )

  const rewardsTab = (
    <div className="space-y-3" data-testid="rewards-tab">
      <div className="flex items-center justify-between">
        <h3 className="font-semibold">Listen to Earn</h3>
        <span className="rounded-full bg-green-500/20 px-2 py-0.5 text-xs text-green-300">Active</span>
      </div>
      <div>
        <div className="flex justify-between text-sm">
          <span id="hour-progress-label">Listening progress (this hour)</span>
          <span data-testid="hour-progress">{Math.round((data.claim?.hourProgress ?? 0) * 100)}%</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby="hour-progress-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round((data.claim?.hourProgress ?? 0) * 100)}
          className="mt-1 h-2 overflow-hidden rounded-full bg-line/60"
        >
          <div className="h-full bg-primary" style={{ width: `${(data.claim?.hourProgress ?? 0) * 100}%` }} />
        </div>
      </div>
      <p className="text-sm">
        {FIGURE_LABELS.earnedToday}: <strong data-testid="today-earnings">{summary.daily} CUBE</strong> · Claimable:{' '}
        <strong data-testid="claimable">{claimable} CUBE</strong>
      </p>
      <button
        type="button"
        className="w-full rounded-md bg-primary px-4 py-2 font-semibold text-bg disabled:opacity-60"
        disabled={claimable <= 0 || claiming || claimLocked !== null}
        onClick={claim}
        data-testid="claim"
      >
        {claimable <= 0 ? 'No Rewards to Claim' : claimLocked ? 'Claiming Locked' : claiming ? 'Claiming…' : 'Claim Rewards'}
      </button>
      {claimLocked && (
        <p className="text-sm text-muted" data-testid="claim-locked">
          {claimLocked}
        </p>
      )}
      <h4 className="font-semibold">Earnings Breakdown</h4>
      <ul className="text-sm">
        <li>Listening 1hr = 5 CUBE</li>
        <li>Sharing = 10 CUBE</li>
        <li>Comments = 2 CUBE</li>
      </ul>
      <h4 className="font-semibold">Earning Tips</h4>
      <ul className="list-disc pl-5 text-sm text-fg/80">
        <li>Listen to full tracks for maximum rewards</li>
        <li>Share on social media for bonus CUBE</li>
        <li>Create playlists for special rewards</li>
      </ul>
    </div>
  )

  const nftTab = (
    <div className="space-y-3" data-testid="nft-tab">
      <h3 className="font-semibold">
        Music NFT Collection <span data-testid="nft-count">({data.nfts.length})</span>
      </h3>
      <NftGrid nfts={data.nfts} chains={data.chains} />
      <h3 className="font-semibold">Mint New NFT</h3>
      <p className="text-sm">
        Balance: <span data-testid="mint-balance">{balance ?? '...'} CUBE</span>
      </p>
      {(balance ?? 0) >= MINT_COST ? (
        <Link to="/app/mint" className="block rounded-md bg-primary px-4 py-2 text-center font-semibold text-bg" data-testid="mint-link">
          Mint NFT (100 CUBE)
        </Link>
      ) : (
        <button
          type="button"
          disabled
          className="w-full rounded-md bg-primary px-4 py-2 font-semibold text-bg opacity-60"
          data-testid="mint-link"
        >
          Mint NFT (100 CUBE)
        </button>
      )}
    </div>
  )

  const preview = !signedIn
  const rewardsRight = (
    <div className="space-y-3" data-testid="cube-rewards" data-preview={preview}>
      {preview && <p className="rounded bg-line/40 px-2 py-1 text-xs">Preview: sample figures. Sign in to see your own.</p>}
      <h3 className="font-semibold">
        CUBE Rewards <span data-testid="rewards-total">{preview ? PREVIEW.total : summary.total}</span>
      </h3>
      <dl className="grid grid-cols-3 gap-2 text-center">
        <div className="rounded border border-line p-2">
          <dt className="text-xs text-muted">{FIGURE_LABELS.earnedToday}</dt>
          <dd data-testid="rewards-daily">+{preview ? PREVIEW.daily : summary.daily}</dd>
        </div>
        <div className="rounded border border-line p-2">
          <dt className="text-xs text-muted">Weekly</dt>
          <dd data-testid="rewards-weekly">+{preview ? PREVIEW.weekly : summary.weekly}</dd>
        </div>
        <div className="rounded border border-line p-2">
          <dt className="text-xs text-muted">Total</dt>
          <dd>{preview ? PREVIEW.total : summary.total}</dd>
        </div>
      </dl>
      <BarChart preview={preview} days={preview ? PREVIEW.days.map((amount, i) => ({ day: `sample-0${i + 1}`, amount })) : summary.days} />
      <h4 className="font-semibold">Reward Sources</h4>
      <ul className="text-sm" data-testid="reward-sources">
        {preview
          ? PREVIEW.sources.map(([label, pct]) => (
              <li key={label}>
                {label} {pct}%
              </li>
            ))
          : summary.sources.map((s) => (
              <li key={s.reason}>
                {REASON_LABEL[s.reason] ?? s.reason} {Math.round(s.share * 100)}% ({s.amount} CUBE)
              </li>
            ))}
      </ul>
    </div>
  )

  return (
    <section className="mx-auto max-w-6xl space-y-6 p-6">
      <CompactPlayer />
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Crypto Wallet</h1>
        <p className="mt-1 text-muted">Connect your wallet and manage your tokens</p>
      </header>
      {tx && txChain && <TransactionPanel chain={txChain} hash={tx} />}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section className="panel p-5" aria-label="Wallet panel" data-testid="wallet-panel" data-state={String(wc.state.value)}>
          {connected ? walletTab : connectView}
        </section>
        {/* One tab bar for the page (a second one inside the wallet panel repeated Rewards and NFTs). */}
        <section className="panel p-5" aria-label="Rewards, NFTs and activity">
          <Tabs
            label="Wallet overview"
            testId="wallet-tabs"
            tabs={[
              {
                id: 'rewards',
                title: 'Rewards',
                content: (
                  <div className="space-y-6">
                    {connected ? rewardsTab : prompt('Connect your wallet to view your rewards')}
                    {rewardsRight}
                  </div>
                ),
              },
              { id: 'nfts', title: 'NFTs', content: signedIn ? nftTab : prompt('Connect your wallet to view your NFTs') },
              { id: 'activity', title: 'Activity', content: <LedgerTokenActivity /> },
            ]}
          />
        </section>
      </div>
      <WalletBasicsCard />
      <CreatorEarningsCard />
    </section>
  )
}
