import { request } from 'node:http'
import { Contract, Wallet } from 'ethers'
import { SiweMessage } from 'siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NFT_ARTIFACT } from '../../supabase/local/chain/embedded-chain.ts'
import { rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'

// docs/security.md items 5 and 6: the deployment's own address comes from its configuration, never from
// what the caller's request says (Origin, Host, X-Forwarded-Host). Attacks through raw HTTP with
// ordinary accounts against the local backend and its embedded chain.

let server: TestServer
const newUser = (tag: string) => signUp(server, `${tag}-${Date.now()}-${Math.random()}@example.com`)
const balanceOf = async (u: TestUser) =>
  (await sql<{ balance: number }>(server, 'select balance from public.user_tokens where user_id = $1', [u.id]))[0]?.balance

/** An edge-function call with whatever headers the attacker likes (http.request sends Host as given). */
function post(path: string, token: string, body: unknown, headers: Record<string, string>) {
  const payload = JSON.stringify(body)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON the function answers
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        headers: {
          apikey: server.keys.anonKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }))
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

beforeAll(async () => {
  server = await startTestServer({ embeddedChain: true })
}, 60_000)
afterAll(() => server?.close())

describe('SIWE: the expected domain is the configured site, not the caller’s Origin', () => {
  it('refuses a correctly signed message for evil.example posted with Origin: https://evil.example, and pays nothing', async () => {
    const victim = await newUser('phished')
    await rpc(server, victim.accessToken, 'init_user_tokens')
    const wallet = Wallet.createRandom()
    // The phishing page asked our server for a nonce with the victim's session, had the victim's
    // wallet sign a message naming its own domain, and replays it with its own Origin.
    const nonce = (await rpc(server, victim.accessToken, 'wallet_issue_nonce')).json.nonce as string
    const message = new SiweMessage({
      domain: 'evil.example',
      address: wallet.address,
      statement: 'Sign in to CUBE Music to link this wallet to your account.',
      uri: 'https://evil.example',
      version: '1',
      chainId: 31337,
      nonce,
      issuedAt: new Date().toISOString(),
    }).prepareMessage()
    const signature = await wallet.signMessage(message)
    const headers = { Origin: 'https://evil.example', Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' }
    const answer = await post('/functions/v1/wallet-verify', victim.accessToken, { message, signature }, headers)
    expect(answer.status).toBe(400)
    expect(answer.json.error).toMatch(
      /^This sign-in message was made for evil\.example \(https:\/\/evil\.example\), not for this site \(http:\/\/127\.0\.0\.1:\d+\)/,
    )
    expect(await sql(server, 'select address from public.wallet_links where user_id = $1', [victim.id])).toEqual([])
    expect(await balanceOf(victim)).toBe(100)

    // Our own domain with a foreign URI is refused too: both come from the configuration.
    const nonce2 = (await rpc(server, victim.accessToken, 'wallet_issue_nonce')).json.nonce as string
    const mixed = new SiweMessage({
      domain: new URL(server.url).host,
      address: wallet.address,
      uri: 'https://evil.example/login',
      version: '1',
      chainId: 31337,
      nonce: nonce2,
      issuedAt: new Date().toISOString(),
    }).prepareMessage()
    expect(
      (
        await post(
          '/functions/v1/wallet-verify',
          victim.accessToken,
          { message: mixed, signature: await wallet.signMessage(mixed) },
          headers,
        )
      ).status,
    ).toBe(400)
    expect(await balanceOf(victim)).toBe(100)
  })
})

describe('mint: the tokenURI is on the configured metadata base, whatever Host the caller sends', () => {
  it('a mint with forged Host / X-Forwarded-Host / X-Forwarded-Proto gets a tokenURI on this server', async () => {
    const u = await newUser('mint-host')
    await rpc(server, u.accessToken, 'init_user_tokens')
    const body = {
      blockchain: 'ethereum',
      name: 'Forged host',
      description: 'x',
      image: 'https://example.com/c.png',
      royalties: 5,
      recipient: Wallet.createRandom().address,
      client_key: `k-${Math.random().toString(36).slice(2)}`,
    }
    const answer = await post('/functions/v1/mint', u.accessToken, body, {
      Host: 'attacker.example',
      'X-Forwarded-Host': 'attacker.example',
      'X-Forwarded-Proto': 'https',
    })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    const tokenId = answer.json.request.token_id as string
    const chain = server.chain!
    const contract = new Contract(chain.contractAddress, NFT_ARTIFACT.abi as never, chain.provider)
    const uri = (await contract.getFunction('tokenURI')(BigInt(tokenId))) as string
    expect(uri).toBe(`${server.url}/functions/v1/nft-metadata?id=${answer.json.request.id}`)
  })
})
