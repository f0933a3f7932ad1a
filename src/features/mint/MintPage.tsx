import { useEffect, useMemo, useState } from 'react'
import { Link } from 'react-router-dom'
import { notify } from '../../lib/notify.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useSongIndex } from '../../domain/collection/song-index.ts'
import { SongPicker } from '../../ui/SongPicker.tsx'
import { isSafeImageUrl, MINT_COST } from './mint-machine.ts'
import { describeNftWithAi, useMintChains, useMintMachine, useRecentMints } from './mint-runtime.ts'

const FALLBACK_IMAGE = '/favicon.svg'
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const MAX_DEVICE_IMAGE = 500_000

export default function MintPage() {
  useEffect(() => {
    document.title = 'NFT Minting Studio · CUBE Music'
  }, [])
  const signedIn = useSessionStore((s) => s.status === 'signed-in')
  const balance = useSessionStore((s) => s.wallet?.balance ?? null)
  const openAuth = useAuthModalStore((s) => s.open)
  const index = useSongIndex()
  // Songs whose audio has an address a token can point at (not audio kept only on this device).
  const songs = useMemo(() => index.map((e) => e.song).filter((s) => s.audioUrl.startsWith('/')), [index])
  const { chains, unavailable } = useMintChains()
  const [image, setImage] = useState('')
  const [imageBroken, setImageBroken] = useState(false)
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [describing, setDescribing] = useState(false)
  const [descriptionSource, setDescriptionSource] = useState<'server' | 'device' | null>(null)
  const [blockchain, setBlockchain] = useState('ethereum')
  const [royalties, setRoyalties] = useState(5)
  const [recipient, setRecipient] = useState('')
  const [collection, setCollection] = useState('')
  const [songId, setSongId] = useState('')
  const [aiTab, setAiTab] = useState<'description' | 'attributes' | 'music'>('description')

  // The chosen chain cannot mint here (e.g. the local chain is off): the first one that can.
  const firstMintable = chains.find((c) => c.enabled && !unavailable.has(c.name))?.name
  if (unavailable.has(blockchain) && firstMintable) setBlockchain(firstMintable)

  const [state, send] = useMintMachine()
  const recent = useRecentMints(signedIn, state.value)

  const song = songs.find((s) => s.id === songId) ?? null
  const recipientError =
    recipient && !ADDRESS.test(recipient.trim())
      ? 'Enter a valid address for this chain (0x and 40 hex digits), or leave it empty for your connected wallet.'
      : null
  const minting = state.matches('minting')
  const canMint = signedIn && (balance ?? 0) >= MINT_COST && !minting && !recipientError

  const onFile = (file: File | undefined) => {
    if (!file) return
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type) || file.size > MAX_DEVICE_IMAGE) {
      notify.error('Image Error', { description: 'Pick a PNG, JPEG, GIF or WebP image of at most 500 KB.' })
      return
    }
    const reader = new FileReader()
    reader.onload = () => {
      setImage(String(reader.result))
      setImageBroken(false)
    }
    reader.readAsDataURL(file)
  }
  const submit = () => {
    const animation = song?.audioUrl && song.audioUrl.startsWith('/') ? `${window.location.origin}${song.audioUrl}` : null
    send({
      type: 'MINT',
      balance,
      input: {
        blockchain,
        name,
        description,
        image: image.trim(),
        royalties,
        recipient: recipient.trim() || null,
        collection: collection.trim() || null,
        song_id: song?.id ?? null,
        animation_url: animation,
      },
    })
  }
  const input = 'mt-1 w-full rounded-md border border-line bg-bg p-2'

  return (
    <section className="mx-auto max-w-6xl space-y-6 p-6">
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">NFT Minting Studio</h1>
        <p className="mt-1 text-muted">Turn artwork or a track into an ERC-721 token for {MINT_COST} CUBE (burned).</p>
      </header>
      {!signedIn && (
        <p className="panel p-3 text-sm">
          Sign in to mint.{' '}
          <button type="button" className="text-primary underline" onClick={() => openAuth('login')}>
            Login / Register
          </button>
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <form
          className="panel space-y-4 p-5"
          onSubmit={(e) => {
            e.preventDefault()
            submit()
          }}
          aria-label="Mint an NFT"
        >
          <label className="block text-sm">
            Image URL
            <input
              className={input}
              value={image.startsWith('data:') ? '(image from your device)' : image}
              onChange={(e) => {
                setImage(e.target.value)
                setImageBroken(false)
              }}
              placeholder="https://…"
              data-testid="mint-image"
            />
          </label>
          <label className="block text-sm">
            …or an image from your device
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              className={input}
              onChange={(e) => onFile(e.target.files?.[0])}
            />
          </label>
          {image && isSafeImageUrl(image) && (
            <img
              src={imageBroken ? FALLBACK_IMAGE : image}
              alt="NFT artwork preview"
              className="h-40 w-40 rounded object-cover"
              data-testid="mint-preview"
              onError={() => {
                if (imageBroken) return
                setImageBroken(true)
                notify.error('Image Error', { description: 'Could not load image from URL' })
              }}
            />
          )}
          {image && !isSafeImageUrl(image) && (
            <p role="alert" className="text-sm text-red-400">
              Only http(s) image URLs or an image from your device.
            </p>
          )}
          <label className="block text-sm">
            Name
            <input className={input} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} data-testid="mint-name" />
          </label>
          <label className="block text-sm">
            Description
            <textarea
              className={input}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              maxLength={2000}
              rows={3}
              data-testid="mint-description"
            />
          </label>
          <div className="block text-sm">
            <SongPicker
              songs={songs}
              value={songId}
              onChange={setSongId}
              label="Track (its audio becomes the NFT's animation_url)"
              labelVisible
              placeholder="No track"
              selectClassName={input}
              testId="mint-track"
            />
          </div>
          <label className="block text-sm">
            Blockchain
            <select className={input} value={blockchain} onChange={(e) => setBlockchain(e.target.value)} data-testid="mint-chain">
              {chains
                .filter((c) => c.enabled)
                .map((c) => (
                  <option key={c.name} value={c.name} disabled={unavailable.has(c.name)}>
                    {c.icon ? `${c.icon} ` : ''}
                    {c.display_name} ({c.native_token}
                    {c.testnet ? ', testnet' : ''}
                    {c.embedded ? ', local chain' : ''}){unavailable.has(c.name) ? ' — not available here' : ''}
                  </option>
                ))}
            </select>
            {unavailable.size > 0 && (
              <span className="mt-1 block text-xs text-muted" data-testid="mint-chains-note">
                This server mints on{' '}
                {chains
                  .filter((c) => c.enabled && !unavailable.has(c.name))
                  .map((c) => c.display_name)
                  .join(', ') || 'no chain'}
                . The others are listed for reference: this server has no provider for them.
              </span>
            )}
          </label>
          <fieldset className="space-y-2 rounded-md border border-line p-3">
            <legend className="px-1 text-sm font-semibold">Advanced settings</legend>
            <label className="block text-sm">
              Royalties: {royalties} %
              <input
                type="range"
                min={0}
                max={50}
                step={0.5}
                value={royalties}
                onChange={(e) => setRoyalties(Number(e.target.value))}
                className="w-full"
                data-testid="mint-royalties"
              />
            </label>
            <label className="block text-sm">
              Recipient (empty: your connected wallet)
              <input
                className={input}
                value={recipient}
                onChange={(e) => setRecipient(e.target.value)}
                placeholder="0x…"
                data-testid="mint-recipient"
                aria-invalid={recipientError ? true : undefined}
              />
            </label>
            {recipientError && (
              <p role="alert" className="text-sm text-red-400">
                {recipientError}
              </p>
            )}
            <label className="block text-sm">
              Collection
              <input className={input} value={collection} onChange={(e) => setCollection(e.target.value)} maxLength={100} />
            </label>
          </fieldset>
          <p className="text-sm">
            Balance: <span data-testid="mint-page-balance">{balance ?? '...'} CUBE</span>
          </p>
          <button
            type="submit"
            disabled={!canMint}
            className="w-full rounded-md bg-primary px-4 py-2 font-semibold text-bg disabled:opacity-60"
            data-testid="mint-submit"
          >
            {minting ? 'Minting on chain…' : `Mint NFT (${MINT_COST} CUBE)`}
          </button>
          {state.context.request?.status === 'completed' && (
            <p className="text-sm" data-testid="mint-result" data-status="completed">
              Minted token #{state.context.request.token_id}:{' '}
              <Link
                className="text-primary underline"
                to={`/app/wallet?chain=${state.context.request.blockchain}&tx=${state.context.request.transaction_id ?? ''}`}
              >
                View on Blockchain
              </Link>
            </p>
          )}
        </form>
        <aside className="space-y-4">
          <section className="panel p-4" aria-label="AI integration">
            <div role="tablist" aria-label="AI integration" className="mb-3 flex gap-1">
              {(['description', 'attributes', 'music'] as const).map((t) => (
                <button
                  key={t}
                  type="button"
                  role="tab"
                  aria-selected={aiTab === t}
                  onClick={() => setAiTab(t)}
                  className={`flex-1 rounded px-2 py-1 text-sm ${aiTab === t ? 'bg-primary text-bg' : 'text-fg/80'}`}
                >
                  {t === 'description' ? 'Description' : t === 'attributes' ? 'Attributes' : 'Music'}
                </button>
              ))}
            </div>
            <div role="tabpanel">
              {aiTab === 'description' ? (
                <div className="space-y-2 text-sm">
                  <p className="text-muted">
                    Writes a description from the name and the chosen track: with the site's Text AI when one is set up, otherwise on this
                    device.
                  </p>
                  <button
                    type="button"
                    className="rounded-md border border-primary px-3 py-1.5 text-primary disabled:opacity-50"
                    disabled={describing}
                    data-testid="ai-describe"
                    onClick={() => {
                      setDescribing(true)
                      const facts = song ? { title: song.title, artist: song.artist, genre: song.genre, duration: song.duration } : null
                      void describeNftWithAi(name, facts)
                        .then(({ text, source }) => {
                          setDescription(text)
                          setDescriptionSource(source)
                        })
                        .finally(() => setDescribing(false))
                    }}
                  >
                    {describing ? 'Writing…' : 'Generate description'}
                  </button>
                  {descriptionSource && (
                    <p className="text-xs text-muted" data-testid="ai-describe-source">
                      {descriptionSource === 'server' ? 'Written by the site’s Text AI.' : 'Written on this device.'}
                    </p>
                  )}
                </div>
              ) : (
                <p className="text-sm text-muted" data-testid="ai-coming-soon">
                  Coming soon: {aiTab === 'attributes' ? 'AI attributes' : 'AI music analysis'} is not available yet.
                </p>
              )}
            </div>
          </section>
          <section className="panel p-4" aria-labelledby="recent-mints">
            <h2 id="recent-mints" className="mb-2 font-semibold">
              Recent Activity
            </h2>
            {recent.length === 0 ? (
              <p className="text-sm text-muted">No mints yet.</p>
            ) : (
              <ul className="space-y-1 text-sm" data-testid="mint-recent">
                {recent.map((r) => (
                  <li key={r.id} className="flex justify-between gap-2">
                    <span className="truncate">{r.metadata.name}</span>
                    <span className={r.status === 'failed' ? 'text-red-400' : r.status === 'completed' ? 'text-green-300' : 'text-muted'}>
                      {r.status}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </aside>
      </div>
    </section>
  )
}
