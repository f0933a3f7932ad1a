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
const deps = (over: Partial<WalletConnectDeps> = {}): WalletConnectDeps => ({
  requestAccount: async () => ({ address: ADDRESS, chainId: 31337 }),
  proveOwnership: async ({ address }) => ({ address, welcome: 50, balance: 150 }),
  accountUserId: () => 'user-1',
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

  it('social: the signed-in account is the wallet; a visitor is asked to sign in first', () => {
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
    expect(member.getSnapshot().value).toBe('connected')
    expect(member.getSnapshot().context.method).toBe('social')
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
