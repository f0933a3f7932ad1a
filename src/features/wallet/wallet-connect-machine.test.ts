import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import {
  CONNECTION_FAILED,
  createWalletConnectMachine,
  NOT_FOUND,
  NoWalletProviderError,
  type WalletConnectDeps,
} from './wallet-connect-machine.ts'
import { loadWalletState, saveWalletState, shortenAddress, WALLET_STATE_KEY } from './wallet-state.ts'

const ADDRESS = '0x1234567890abcdef1234567890ABCDEF12345678'
const CUSTODIAL = '0x00000000000000000000000000000000000000C0'
const deps = (over: Partial<WalletConnectDeps> = {}): WalletConnectDeps => ({
  requestAccount: async () => ({ address: ADDRESS, chainId: 31337 }),
  proveOwnership: async ({ address }) => ({ address, welcome: 50, balance: 150 }),
  accountUserId: () => 'user-1',
  linkAccountWallet: async () => ({ address: CUSTODIAL, welcome: 50, balance: 150 }),
  ...over,
})

describe('wallet-connect machine', () => {
  it('browser: choosing → connecting → verifying → connected with the server-verified address', async () => {
    const seen: string[] = []
    const actor = createActor(createWalletConnectMachine(deps()))
    actor.subscribe((s) => seen.push(String(s.value)))
    actor.start()
    actor.send({ type: 'OPEN' })
    actor.send({ type: 'BROWSER' })
    const done = await waitFor(actor, (s) => s.matches('connected'))
    expect(seen).toEqual(['disconnected', 'choosing', 'connecting', 'verifying', 'connected'])
    expect(done.context).toMatchObject({ method: 'browser', address: ADDRESS, welcome: 50 })
    actor.send({ type: 'ACCOUNT_CHANGED', address: ADDRESS.toLowerCase() })
    expect(actor.getSnapshot().context.needsReverify).toBe(false)
    actor.send({ type: 'ACCOUNT_CHANGED', address: '0x0000000000000000000000000000000000000001' })
    expect(actor.getSnapshot().context.needsReverify).toBe(true)
    actor.send({ type: 'DISCONNECT' })
    expect(actor.getSnapshot().value).toBe('disconnected')
  })

  it("no provider → 'MetaMask Not Found'; rejection or a refused proof → 'Connection Failed'", async () => {
    const none = createActor(
      createWalletConnectMachine(deps({ requestAccount: () => Promise.reject(new NoWalletProviderError()) })),
    ).start()
    none.send({ type: 'BROWSER' })
    expect((await waitFor(none, (s) => s.matches('failed'))).context.error).toEqual(NOT_FOUND)
    const rejected = createActor(
      createWalletConnectMachine(
        deps({ requestAccount: () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })) }),
      ),
    ).start()
    rejected.send({ type: 'BROWSER' })
    expect((await waitFor(rejected, (s) => s.matches('failed'))).context.error).toMatchObject(CONNECTION_FAILED)
    const refused = createActor(
      createWalletConnectMachine(
        deps({ proveOwnership: () => Promise.reject(new Error('This address is already linked to another CUBE account')) }),
      ),
    ).start()
    refused.send({ type: 'BROWSER' })
    const failed = await waitFor(refused, (s) => s.matches('failed'))
    expect(failed.context.error).toEqual({ ...CONNECTION_FAILED, detail: 'This address is already linked to another CUBE account' })
  })

  it('social: the signed-in account is the wallet; a visitor is asked to sign in first', async () => {
    const asked: string[] = []
    const visitor = createActor(
      createWalletConnectMachine(deps({ accountUserId: () => null })).provide({ actions: { askToSignIn: () => void asked.push('login') } }),
    ).start()
    visitor.send({ type: 'OPEN' })
    visitor.send({ type: 'SOCIAL' })
    expect(visitor.getSnapshot().value).toBe('choosing')
    expect(asked).toEqual(['login'])
    const member = createActor(createWalletConnectMachine(deps())).start()
    member.send({ type: 'OPEN' })
    member.send({ type: 'SOCIAL' })
    const done = await waitFor(member, (s) => s.matches('connected'))
    expect(done.context).toMatchObject({ method: 'social', address: CUSTODIAL, welcome: 50 })
  })

  // The button did nothing unless the chooser was open (the page shows it straight away).
  it('social works from the page as it loads (disconnected) and after a failed attempt', async () => {
    const fresh = createActor(createWalletConnectMachine(deps())).start()
    fresh.send({ type: 'SOCIAL' })
    expect((await waitFor(fresh, (s) => s.matches('connected'))).context.address).toBe(CUSTODIAL)

    let calls = 0
    const flaky = createActor(
      createWalletConnectMachine(
        deps({
          linkAccountWallet: async () => {
            if (++calls === 1) throw new Error('server down')
            return { address: CUSTODIAL, welcome: 0, balance: 100 }
          },
        }),
      ),
    ).start()
    flaky.send({ type: 'SOCIAL' })
    const failed = await waitFor(flaky, (s) => s.matches('failed'))
    expect(failed.context.error).toMatchObject({ ...CONNECTION_FAILED, detail: 'server down' })
    flaky.send({ type: 'SOCIAL' })
    expect((await waitFor(flaky, (s) => s.matches('connected'))).context.method).toBe('social')
  })

  it('a reload restores a custodial link as social and a proven one as browser', () => {
    const social = createActor(createWalletConnectMachine(deps())).start()
    social.send({ type: 'RESTORE', address: CUSTODIAL, custodial: true })
    expect(social.getSnapshot().context).toMatchObject({ method: 'social', address: CUSTODIAL })
    // A browser wallet's account switching does not touch the account's own address.
    social.send({ type: 'ACCOUNT_CHANGED', address: ADDRESS })
    expect(social.getSnapshot().context.needsReverify).toBe(false)
    const browser = createActor(createWalletConnectMachine(deps())).start()
    browser.send({ type: 'RESTORE', address: ADDRESS })
    expect(browser.getSnapshot().context.method).toBe('browser')
  })
})

describe('walletState cache', () => {
  it('round-trips, shortens the address, and ignores (and logs) an unparsable value', () => {
    const store = new Map<string, string>()
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) }
    saveWalletState({ isConnected: true, selectedChain: 'SOL', walletAddress: shortenAddress(ADDRESS) }, storage)
    expect(loadWalletState(storage)).toEqual({ isConnected: true, selectedChain: 'SOL', walletAddress: '0x1234...5678' })
    store.set(WALLET_STATE_KEY, '{nope')
    const warn = console.warn
    const logged: unknown[] = []
    console.warn = (...args: unknown[]) => void logged.push(args)
    try {
      expect(loadWalletState(storage)).toEqual({ isConnected: false, selectedChain: 'ETH', walletAddress: '' })
    } finally {
      console.warn = warn
    }
    expect(logged).toHaveLength(1)
  })
})

describe('the SIWE message format', () => {
  it('is what the siwe package parses (the server verifies with it)', async () => {
    const { SiweMessage } = await import('siwe')
    const { siweMessage } = await import('./siwe-message.ts')
    const fields = {
      domain: '127.0.0.1:4320',
      address: '0x12eC2b4a27ecC1fcc95E42a90520f0142Cab94B9',
      statement: 'Sign in to CUBE Music to link this wallet to your account.',
      uri: 'http://127.0.0.1:4320',
      chainId: 31337,
      nonce: 'abcdef0123456789abcd',
      issuedAt: '2026-11-23T03:00:00.000Z',
      expirationTime: '2026-11-23T03:05:00.000Z',
    }
    const text = siweMessage(fields)
    const parsed = new SiweMessage(text)
    expect(parsed).toMatchObject({ ...fields, version: '1' })
    expect(parsed.prepareMessage()).toBe(text)
  })
})
