import { Contract, Wallet, type HDNodeWallet } from 'ethers'
import { SiweMessage } from 'siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NFT_ARTIFACT } from '../../supabase/local/chain/embedded-chain.ts'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { creditedListening } from './support/listening.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests, type Expectation, type RlsContext } from './support/rls-matrix.ts'
import { listenHistory } from './support/trust.ts'

// The server truth on the local backend with its embedded EVM chain: SIWE-proven wallet
// links and the wallet welcome, the claimable listening pot, and minting an ERC-721 token for real.

let server: TestServer
const users: Record<string, TestUser> = {}
const newUser = async (tag: string) => (users[tag] = await signUp(server, `${tag}-${Date.now()}-${Math.random()}@example.com`))
const balanceOf = async (u: TestUser) =>
  (await sql<{ balance: number }>(server, 'select balance from public.user_tokens where user_id = $1', [u.id]))[0]?.balance
const ledgerCount = async (u: TestUser, reason: string) =>
  Number(
    (
      await sql<{ n: string }>(server, 'select count(*) as n from public.token_ledger where user_id = $1 and reason = $2', [u.id, reason])
    )[0]?.n,
  )
const host = () => new URL(server.url).host

/** What the browser does: a nonce from the server, an EIP-4361 message signed by the wallet. */
async function signIn(u: TestUser, wallet: Wallet | HDNodeWallet, opts: { domain?: string; signer?: Wallet | HDNodeWallet } = {}) {
  const nonce = await rpc(server, u.accessToken, 'wallet_issue_nonce')
  expect(nonce.status, nonce.text).toBe(200)
  const message = new SiweMessage({
    domain: opts.domain ?? host(),
    address: wallet.address,
    statement: 'Sign in to CUBE Music to link this wallet to your account.',
    uri: server.url,
    version: '1',
    chainId: 31337,
    nonce: nonce.json.nonce as string,
    issuedAt: new Date().toISOString(),
  }).prepareMessage()
  const signature = await (opts.signer ?? wallet).signMessage(message)
  return { message, signature, nonce: nonce.json.nonce as string }
}
const verify = (u: TestUser, body: { message: string; signature: string }) =>
  api(server, '/functions/v1/wallet-verify', { token: u.accessToken, body })

beforeAll(async () => {
  server = await startTestServer({ embeddedChain: true })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

describe('wallet connect: Sign-In with Ethereum verified by the server', () => {
  it('links the checksummed address, +50 once; nonces are single use and expire; one address per account', async () => {
    const a = await newUser('siwe-a')
    const wallet = Wallet.createRandom()
    const first = await signIn(a, wallet)
    const ok = await verify(a, first)
    expect(ok.status, ok.text).toBe(200)
    expect(ok.json).toEqual({ address: wallet.address, welcome: 50, balance: 150 })
    expect(await sql(server, 'select address from public.wallet_links where user_id = $1', [a.id])).toEqual([{ address: wallet.address }])

    const replay = await verify(a, first)
    expect(replay.status).toBe(400)
    expect(replay.json.code).toBe('nonce_used')

    const again = await verify(a, await signIn(a, wallet))
    expect(again.status).toBe(200)
    expect(again.json.welcome).toBe(0)
    expect(await balanceOf(a)).toBe(150)
    expect(await ledgerCount(a, 'wallet_welcome')).toBe(1)

    const forged = await signIn(a, wallet, { signer: Wallet.createRandom() })
    const forgedAnswer = await verify(a, forged)
    expect(forgedAnswer.status).toBe(400)
    expect(forgedAnswer.json.error).toMatch(/signature does not prove/)

    const wrongDomain = await verify(a, await signIn(a, wallet, { domain: 'evil.example' }))
    expect(wrongDomain.status).toBe(400)

    const late = await signIn(a, wallet)
    await sql(server, "update public.siwe_nonces set expires_at = now() - interval '1 second' where nonce = $1", [late.nonce])
    const expired = await verify(a, late)
    expect(expired.status).toBe(400)
    expect(expired.json.code).toBe('nonce_expired')

    // Another account cannot take the address, nor use a nonce issued to someone else.
    const b = await newUser('siwe-b')
    const taken = await verify(b, await signIn(b, wallet))
    expect(taken.status).toBe(409)
    expect(taken.json.error).toBe('This address is already linked to another CUBE account')
    const stolenNonce = await signIn(a, Wallet.createRandom())
    expect((await verify(b, stolenNonce)).json.code).toBe('invalid_nonce')

    // Unlinked by its owner, the address can move, but its welcome was paid already.
    expect((await rpc(server, a.accessToken, 'wallet_unlink')).json).toEqual({ unlinked: true })
    const moved = await verify(b, await signIn(b, wallet))
    expect(moved.status).toBe(200)
    expect(moved.json.welcome).toBe(0)
    expect(await ledgerCount(b, 'wallet_welcome')).toBe(0)

    // The link is only ever written by the server after the check.
    const direct = await rpc(server, b.accessToken, 'wallet_link', {
      p_user: b.id,
      p_address: Wallet.createRandom().address,
      p_nonce: 'x',
      p_chain_id: 1,
    })
    expect([401, 403, 404]).toContain(direct.status)
    expect((await api(server, '/functions/v1/wallet-verify', { body: first })).status).toBe(401)
  })

  it('concurrent verifications of one account pay the welcome once', async () => {
    const u = await newUser('siwe-race')
    const proofs = await Promise.all(Array.from({ length: 6 }, () => signIn(u, Wallet.createRandom())))
    const answers = await Promise.all(proofs.map((p) => verify(u, p)))
    expect(answers.every((r) => r.status === 200)).toBe(true)
    expect(answers.map((r) => r.json.welcome as number).reduce((s, n) => s + n, 0)).toBe(50)
    expect(await balanceOf(u)).toBe(150)
  })
})

describe('Social login: the account as the wallet', () => {
  const social = (u: TestUser) => api(server, '/functions/v1/wallet-verify', { token: u.accessToken, body: { custodial: true } })

  it('links an address the server made for the account, the same one every time, +50 once; a proven wallet replaces it', async () => {
    const u = await newUser('social')
    const first = await social(u)
    expect(first.status, first.text).toBe(200)
    expect(first.json).toMatchObject({ welcome: 50, balance: 150, custodial: true })
    const address = first.json.address as string
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(await sql(server, 'select address, custodial from public.wallet_links where user_id = $1', [u.id])).toEqual([
      { address, custodial: true },
    ])
    const again = await social(u)
    expect(again.json).toMatchObject({ address, welcome: 0, balance: 150 })

    // MetaMask later: the proven address replaces the link; Social login again brings the same custodial one back.
    const wallet = Wallet.createRandom()
    expect((await verify(u, await signIn(u, wallet))).json).toMatchObject({ address: wallet.address, welcome: 0 })
    expect(await sql(server, 'select custodial from public.wallet_links where user_id = $1', [u.id])).toEqual([{ custodial: false }])
    expect((await social(u)).json.address).toBe(address)
    expect(await ledgerCount(u, 'wallet_welcome')).toBe(1)
  })

  it('20 concurrent Social logins of a fresh account: one address, one welcome, balance equals the ledger', async () => {
    const u = await newUser('social-race')
    const answers = await Promise.all(Array.from({ length: 20 }, () => social(u)))
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    expect(new Set(answers.map((a) => a.json.address)).size).toBe(1)
    expect(answers.filter((a) => a.json.welcome === 50)).toHaveLength(1)
    expect(await ledgerCount(u, 'wallet_welcome')).toBe(1)
    const sums = await sql<{ ok: boolean }>(
      server,
      'select t.balance = (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id) as ok ' +
        'from public.user_tokens t where t.user_id = $1',
      [u.id],
    )
    expect(sums).toEqual([{ ok: true }])
  })

  it('a visitor cannot; the private key is never readable by anyone through the API', async () => {
    expect((await api(server, '/functions/v1/wallet-verify', { body: { custodial: true } })).status).toBe(401)
    const u = await newUser('social-key')
    await social(u)
    const rows = await sql<{ private_key: string }>(server, 'select private_key from public.custodial_wallets where user_id = $1', [u.id])
    const key = rows[0]!.private_key
    const reads = await Promise.all([
      api(server, '/rest/v1/custodial_wallets?select=*', { token: u.accessToken }),
      api(server, '/rest/v1/custodial_wallets?select=*'),
      api(server, '/rest/v1/wallet_links?select=*', { token: u.accessToken }),
      rpc(server, u.accessToken, 'wallet_link_custodial', { p_user: u.id, p_address: Wallet.createRandom().address, p_private_key: key }),
      social(u),
    ])
    // Permission denied, as PostgREST answers it: 403 for a signed-in user, 401 for a visitor.
    expect(reads.map((r) => r.status)).toEqual([403, 401, 200, 403, 200])
    expect(reads.map((r) => r.text).join('')).not.toContain(key.slice(2))
  })

  it('a mint without a recipient goes to the account address on chain', async () => {
    const u = await newUser('social-mint')
    const address = (await social(u)).json.address as string
    const r = await api(server, '/functions/v1/mint', {
      token: u.accessToken,
      body: {
        blockchain: 'ethereum',
        name: 'Mine',
        description: 'd',
        image: 'https://example.com/c.png',
        royalties: 5,
        client_key: 'social-1',
      },
    })
    expect(r.status, r.text).toBe(200)
    const tokenId = (r.json.request as { token_id: string }).token_id
    const chain = server.chain!
    const contract = new Contract(chain.contractAddress, NFT_ARTIFACT.abi as never, chain.provider)
    expect(await contract.getFunction('ownerOf')(BigInt(tokenId))).toBe(address)
  })
})

describe('claimable listening rewards', () => {
  it('2 h of accepted listening → 10 CUBE claimable; 20 concurrent claims pay once', async () => {
    const u = await newUser('claim')
    await rpc(server, u.accessToken, 'init_user_tokens')
    // Claiming needs a trusted account (supabase/schemas/trust.sql): 10 listens of 1 CUBE on 3 days.
    await listenHistory(server, u.id)
    // Server-measured listening the pot counts: 3000 s, 3000 s and 2100 s.
    await creditedListening(server, u.id, 3000, 1)
    await creditedListening(server, u.id, 3000, 2)
    await creditedListening(server, u.id, 2100, 3)
    const status = await rpc(server, u.accessToken, 'wallet_claim_status')
    expect(status.json).toMatchObject({ listened_seconds: 8100, hours: 2, claimable: 10, hour_progress: 0.25 })
    const claims = await Promise.all(Array.from({ length: 20 }, () => rpc(server, u.accessToken, 'wallet_claim')))
    expect(claims.every((c) => c.status === 200)).toBe(true)
    expect(claims.map((c) => c.json.claimed as number).sort((x, y) => y - x)).toEqual([10, ...Array(19).fill(0)])
    expect(await balanceOf(u)).toBe(120) // 100 welcome + 10 listens of the trust setup + 10 claimed
    expect((await rpc(server, u.accessToken, 'wallet_claim_status')).json.claimable).toBe(0)
    const sums = await sql<{ ok: boolean }>(
      server,
      'select (select balance from public.user_tokens where user_id = $1) = (select sum(amount) from public.token_ledger ' +
        'where user_id = $1) as ok',
      [u.id],
    )
    expect(sums[0]?.ok).toBe(true)
  })
})

describe('minting on the embedded chain', () => {
  const mintBody = (over: Record<string, unknown> = {}) => ({
    blockchain: 'ethereum',
    name: 'Neon Drift #1',
    description: 'A CUBE Music track',
    image: 'https://example.com/cover.png',
    royalties: 7.5,
    client_key: `k-${Math.random().toString(36).slice(2)}`,
    ...over,
  })
  const mintAs = (u: TestUser, body: Record<string, unknown>) => api(server, '/functions/v1/mint', { token: u.accessToken, body })

  it('150 → mint → 50: completed with the transaction hash, nfts row, ownerOf / tokenURI / royaltyInfo on chain', async () => {
    const u = await newUser('mint')
    const wallet = Wallet.createRandom()
    expect((await verify(u, await signIn(u, wallet))).json.balance).toBe(150)
    const r = await mintAs(u, mintBody())
    expect(r.status, r.text).toBe(200)
    expect(r.json.balance).toBe(50)
    expect(await balanceOf(u)).toBe(50)
    const request = r.json.request as {
      id: string
      status: string
      transaction_id: string
      token_id: string
      recipient: string
      royalties: number
    }
    expect(request.status).toBe('completed')
    expect(request.transaction_id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(request.transaction_id).toHaveLength(66)
    expect(request.recipient).toBe(wallet.address)
    // The reference's unit: percent (7.5 %), while the token's ERC-2981 royalty below is 750 basis points.
    expect(request.royalties).toBe(7.5)
    const nfts = await api(server, `/rest/v1/nfts?mint_request_id=eq.${request.id}`)
    expect(nfts.json).toHaveLength(1)
    expect(nfts.json[0]).toMatchObject({
      owner_id: u.id,
      token_id: request.token_id,
      transaction_id: request.transaction_id,
      royalties: 7.5,
      blockchain: 'ethereum',
    })

    const chain = server.chain!
    const contract = new Contract(chain.contractAddress, NFT_ARTIFACT.abi as never, chain.provider)
    expect(await contract.getFunction('ownerOf')(BigInt(request.token_id))).toBe(wallet.address)
    const [receiver, amount] = (await contract.getFunction('royaltyInfo')(BigInt(request.token_id), 10_000n)) as [string, bigint]
    expect([receiver, amount]).toEqual([wallet.address, 750n])
    const uri = (await contract.getFunction('tokenURI')(BigInt(request.token_id))) as string
    expect(uri).toBe(`${server.url}/functions/v1/nft-metadata?id=${request.id}`)
    const metadata = (await (await fetch(uri)).json()) as { name: string; attributes: { trait_type: string; value: string }[] }
    expect(metadata.name).toBe('Neon Drift #1')
    expect(metadata.attributes).toContainEqual({ trait_type: 'Created with', value: 'CUBE Music' })

    const page = await api(server, `/functions/v1/chain-transaction?chain=ethereum&hash=${request.transaction_id}`)
    expect(page.json).toMatchObject({
      status: 'success',
      tokenId: request.token_id,
      owner: wallet.address,
      tokenUri: uri,
      royalty: { receiver: wallet.address, amount: '750' },
    })
  })

  it('10 concurrent clicks → one burn, one token; below 100 refused server-side; bitcoin has no provider', async () => {
    const u = await newUser('mint-race')
    await rpc(server, u.accessToken, 'init_user_tokens')
    const recipient = Wallet.createRandom().address
    const body = mintBody({ recipient })
    const answers = await Promise.all(Array.from({ length: 10 }, () => mintAs(u, body)))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(await ledgerCount(u, 'mint')).toBe(1)
    expect(await sql(server, 'select count(*)::int as n from public.nfts where owner_id = $1', [u.id])).toEqual([{ n: 1 }])
    expect(await balanceOf(u)).toBe(0)

    // Different users minting at once share the server's one minter key: every mint completes.
    const crowd = await Promise.all([newUser('crowd-1'), newUser('crowd-2'), newUser('crowd-3')])
    await Promise.all(crowd.map((c) => rpc(server, c.accessToken, 'init_user_tokens')))
    const crowdMints = await Promise.all(crowd.map((c) => mintAs(c, mintBody({ recipient }))))
    expect(crowdMints.map((m) => m.json.request?.status)).toEqual(['completed', 'completed', 'completed'])
    expect(new Set(crowdMints.map((m) => m.json.request.token_id as string)).size).toBe(3)

    const poor = await mintAs(u, mintBody({ recipient }))
    expect(poor.status).toBe(400)
    expect(poor.json.error).toBe('You need at least 100 CUBE to mint an NFT.')
    const bypass = await rpc(server, u.accessToken, 'mint_begin', {
      p_user: u.id,
      p_client_key: 'bypass-key',
      p_blockchain: 'ethereum',
      p_metadata: {},
      p_recipient: recipient,
      p_royalties: 0,
      p_collection: null,
    })
    expect([401, 403, 404]).toContain(bypass.status)

    const rich = await newUser('mint-btc')
    await rpc(server, rich.accessToken, 'init_user_tokens')
    const btc = await mintAs(rich, mintBody({ blockchain: 'bitcoin', recipient }))
    expect(btc.status).toBe(400)
    expect(btc.json.error).toBe('Provider for bitcoin not initialized')
    expect(await balanceOf(rich)).toBe(100)
    expect(await ledgerCount(rich, 'mint')).toBe(0)

    const missing = await mintAs(rich, mintBody({ description: '  ', recipient }))
    expect(missing.json.error).toBe('Please provide a name, description, and image URL.')
    const script = await mintAs(rich, mintBody({ image: 'javascript:alert(1)', recipient }))
    expect(script.status).toBe(400)
    expect(await balanceOf(rich)).toBe(100)
  })

  it('the chain stopped → request failed and the 100 CUBE refunded', async () => {
    const u = await newUser('mint-down')
    await rpc(server, u.accessToken, 'init_user_tokens')
    server.chain!.stop()
    try {
      const r = await mintAs(u, mintBody({ recipient: Wallet.createRandom().address }))
      expect(r.status).toBe(502)
      expect(r.json.refunded).toBe(true)
      expect(r.json.request.status).toBe('failed')
    } finally {
      server.chain!.start()
    }
    expect(await balanceOf(u)).toBe(100)
    expect(await ledgerCount(u, 'mint')).toBe(1)
    expect(await ledgerCount(u, 'mint_refund')).toBe(1)
  })

  it('GET says which chains can mint (anyone may ask); a forced mint on another keeps the reference error', async () => {
    const answer = await api(server, '/functions/v1/mint', { method: 'GET' })
    expect(answer.status, answer.text).toBe(200)
    const chains = answer.json.chains as { name: string; mintable: boolean; reason?: string }[]
    expect(chains.find((c) => c.name === 'ethereum')).toEqual({ name: 'ethereum', mintable: true })
    expect(chains.find((c) => c.name === 'bitcoin')).toEqual({
      name: 'bitcoin',
      mintable: false,
      reason: 'Provider for bitcoin not initialized',
    })
    expect(chains.filter((c) => !c.mintable).every((c) => c.reason === `Provider for ${c.name} not initialized`)).toBe(true)
    const u = await newUser('forced')
    await rpc(server, u.accessToken, 'init_user_tokens')
    const forced = await mintAs(u, mintBody({ blockchain: 'bitcoin', recipient: Wallet.createRandom().address }))
    expect(forced.json.error).toBe('Provider for bitcoin not initialized')
  })

  it('the minter key is never readable through any API', async () => {
    const key = server.chain!.minter.privateKey.slice(2)
    const u = await newUser('key')
    const answers = await Promise.all([
      api(server, '/rest/v1/blockchain_configs?select=*'),
      api(server, '/rest/v1/blockchain_configs?select=*', { token: u.accessToken }),
      api(server, '/rest/v1/nfts?select=*'),
      api(server, '/rest/v1/mint_requests?select=*', { token: u.accessToken }),
      rpc(server, u.accessToken, 'wallet_rules'),
    ])
    for (const a of answers) expect(a.status).toBe(200)
    const dump = await sql<{ t: string }>(server, "select string_agg(row_to_json(c)::text, '') as t from public.blockchain_configs c")
    expect(answers.map((a) => a.text).join('') + dump[0]?.t).not.toContain(key)
  })
})

describe('RLS of the wallet and mint tables', () => {
  let ctx: RlsContext
  const ids = { request: '00000000-0000-4000-8000-0000000000a1', nft: '00000000-0000-4000-8000-0000000000b1' }
  const publicReadOnly: Expectation = {
    anon: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
    owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
    other: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
  }
  const hidden: Expectation = {
    anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
    owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
    other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
  }
  beforeAll(async () => {
    const owner = await newUser('rls-owner')
    const other = await newUser('rls-other')
    ctx = rlsContext(server, owner, other)
    await ctx.q("insert into public.wallet_links (user_id, address) values ($1, '0x00000000000000000000000000000000000000a1')", [owner.id])
    await ctx.q(
      "insert into public.custodial_wallets (user_id, address, private_key) values ($1, '0x00000000000000000000000000000000000000d1', $2)",
      [owner.id, `0x${'2'.repeat(64)}`],
    )
    await ctx.q(
      "insert into public.siwe_nonces (nonce, user_id, expires_at) values ('rlsnonce0000000000a1', $1, now() + interval '5 minutes')",
      [owner.id],
    )
    await ctx.q(
      'insert into public.mint_requests (id, user_id, client_key, blockchain, metadata, recipient, royalties) values ' +
        "($1, $2, 'rls-key-1', 'ethereum', '{}', '0x00000000000000000000000000000000000000a1', 5)",
      [ids.request, owner.id],
    )
    await ctx.q(
      'insert into public.nfts (id, mint_request_id, blockchain, contract_address, token_id, transaction_id, metadata, ' +
        "owner_id, royalties) values ($1, $2, 'ethereum', '0x00000000000000000000000000000000000000c1', '999', '0xabc', '{}', " +
        '$3, 5)',
      [ids.nft, ids.request, owner.id],
    )
  })
  const noop = async () => undefined
  rlsMatrixTests(
    {
      wallet_links: {
        target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
        insert: ({ owner: { id: o } }) => ({ user_id: o, address: '0x00000000000000000000000000000000000000f1' }),
        update: { address: '0x00000000000000000000000000000000000000f2' },
        inserted: (x) => x.exists("select 1 from public.wallet_links where address = '0x00000000000000000000000000000000000000f1'"),
        untouched: (x) =>
          x.exists("select 1 from public.wallet_links where user_id = $1 and address = '0x00000000000000000000000000000000000000a1'", [
            x.owner.id,
          ]),
        reset: noop,
        expect: readOnlyOwn,
      },
      siwe_nonces: {
        target: () => 'nonce=eq.rlsnonce0000000000a1',
        insert: ({ owner: { id: o } }) => ({ nonce: 'forgednonce00000000a2', user_id: o, expires_at: '2100-01-01T00:00:00Z' }),
        update: { used_at: null, expires_at: '2100-01-01T00:00:00Z' },
        inserted: (x) => x.exists("select 1 from public.siwe_nonces where nonce = 'forgednonce00000000a2'"),
        untouched: (x) =>
          x.exists("select 1 from public.siwe_nonces where nonce = 'rlsnonce0000000000a1' and expires_at < now() + interval '1 day'"),
        reset: noop,
        expect: hidden,
      },
      mint_requests: {
        target: () => `id=eq.${ids.request}`,
        insert: ({ owner: { id: o } }) => ({
          user_id: o,
          client_key: 'forged-key',
          blockchain: 'ethereum',
          metadata: {},
          recipient: '0x00000000000000000000000000000000000000a1',
          royalties: 0,
          status: 'completed',
        }),
        update: { status: 'completed' },
        inserted: (x) => x.exists("select 1 from public.mint_requests where client_key = 'forged-key'"),
        untouched: (x) => x.exists("select 1 from public.mint_requests where id = $1 and status = 'pending'", [ids.request]),
        reset: noop,
        expect: readOnlyOwn,
      },
      nfts: {
        target: () => `id=eq.${ids.nft}`,
        insert: ({ owner: { id: o } }) => ({
          mint_request_id: ids.request,
          blockchain: 'ethereum',
          contract_address: '0x00000000000000000000000000000000000000c2',
          token_id: '1',
          transaction_id: 'x',
          metadata: {},
          owner_id: o,
          royalties: 0,
        }),
        update: { token_id: '1000' },
        inserted: (x) => x.exists("select 1 from public.nfts where contract_address = '0x00000000000000000000000000000000000000c2'"),
        untouched: (x) => x.exists("select 1 from public.nfts where id = $1 and token_id = '999'", [ids.nft]),
        reset: noop,
        expect: publicReadOnly,
      },
      custodial_wallets: {
        target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
        insert: ({ other: { id: o } }) => ({
          user_id: o,
          address: '0x00000000000000000000000000000000000000e1',
          private_key: `0x${'1'.repeat(64)}`,
        }),
        update: { address: '0x00000000000000000000000000000000000000e2' },
        inserted: (x) => x.exists("select 1 from public.custodial_wallets where address = '0x00000000000000000000000000000000000000e1'"),
        untouched: (x) =>
          x.exists("select 1 from public.custodial_wallets where user_id = $1 and address = '0x00000000000000000000000000000000000000d1'", [
            x.owner.id,
          ]),
        reset: noop,
        expect: hidden,
      },
      blockchain_configs: {
        target: () => 'name=eq.bitcoin',
        insert: () => ({ name: 'forgedchain', display_name: 'F', native_token: 'F' }),
        update: { testnet_rpc_url: 'https://evil.example' },
        inserted: (x) => x.exists("select 1 from public.blockchain_configs where name = 'forgedchain'"),
        untouched: (x) => x.exists("select 1 from public.blockchain_configs where name = 'bitcoin' and testnet_rpc_url is null"),
        reset: noop,
        expect: publicReadOnly,
      },
    },
    () => ctx,
  )
})
