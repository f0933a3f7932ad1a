/**
 * Wallet connect: disconnected → choosing → connecting → verifying → connected | failed.
 *
 *   createWalletConnectMachine(deps)   dependencies injected (the app: ethers BrowserProvider on
 *                                      window.ethereum and the server calls; tests: fakes)
 *   events: OPEN | CLOSE | BROWSER | SOCIAL | DISCONNECT | RETRY | RESTORE { address } |
 *           ACCOUNT_CHANGED { address }
 *
 * Browser wallet: eth_requestAccounts, then the server's single-use nonce goes into an EIP-4361
 * message the wallet signs, and the server verifies it and links the address (the client never
 * decides that it is connected). Social login (from any state but a connection in progress): the
 * signed-in CUBE account is the wallet, with an address the server made for it and holds
 * (custodial); signed out, it asks the user to sign in first.
 */
import { assign, fromPromise, setup } from 'xstate'

export const NOT_FOUND = { title: 'MetaMask Not Found', description: 'Please install MetaMask to connect your wallet.' } as const
export const CONNECTION_FAILED = { title: 'Connection Failed', description: 'Failed to connect to your wallet. Please try again.' } as const

export class NoWalletProviderError extends Error {
  constructor() {
    super(NOT_FOUND.description)
    this.name = 'NoWalletProviderError'
  }
}

export interface WalletConnectDeps {
  /** eth_requestAccounts through the browser wallet; throws NoWalletProviderError without one. */
  requestAccount: () => Promise<{ address: string; chainId: number }>
  /** Nonce from the server, SIWE message signed by the wallet, verified and linked by the server. */
  proveOwnership: (account: { address: string; chainId: number }) => Promise<{ address: string; welcome: number; balance: number }>
  /** The signed-in CUBE account, if any (social login). */
  accountUserId: () => string | null
  /** Social login: the server links the account's custodial address (made once) and answers it. */
  linkAccountWallet: () => Promise<{ address: string; welcome: number; balance: number }>
}

export interface WalletConnectContext {
  method: 'browser' | 'social' | null
  address: string | null
  account: { address: string; chainId: number } | null
  welcome: number
  error: { title: string; description: string; detail?: string } | null
  /** The provider switched to an address other than the linked one. */
  needsReverify: boolean
}

type WalletConnectEvent =
  | { type: 'OPEN' }
  | { type: 'CLOSE' }
  | { type: 'BROWSER' }
  | { type: 'SOCIAL' }
  | { type: 'DISCONNECT' }
  | { type: 'RETRY' }
  | { type: 'RESTORE'; address: string; custodial?: boolean }
  | { type: 'ACCOUNT_CHANGED'; address: string | null }

const failure = (error: unknown): WalletConnectContext['error'] => {
  if (error instanceof NoWalletProviderError) return { ...NOT_FOUND }
  const detail = error instanceof Error ? error.message : undefined
  return { ...CONNECTION_FAILED, detail }
}

// Signed in: the server links the account's own address; signed out: the login dialog first.
const SOCIAL = [{ guard: 'signedIn', target: 'linkingAccount' }, { actions: 'askToSignIn' }] as const

export function createWalletConnectMachine(deps: WalletConnectDeps) {
  return setup({
    types: { context: {} as WalletConnectContext, events: {} as WalletConnectEvent },
    actors: {
      connect: fromPromise(() => deps.requestAccount()),
      verify: fromPromise(({ input }: { input: { address: string; chainId: number } }) => deps.proveOwnership(input)),
      linkAccount: fromPromise(() => deps.linkAccountWallet()),
    },
    actions: {
      // Provided by the UI (toasts, the login dialog); no-ops by default.
      notifyFailed: () => undefined,
      notifyConnected: () => undefined,
      askToSignIn: () => undefined,
    },
    guards: {
      signedIn: () => deps.accountUserId() !== null,
      otherAddress: ({ context, event }) =>
        event.type === 'ACCOUNT_CHANGED' &&
        context.method === 'browser' &&
        (event.address ?? '').toLowerCase() !== (context.address ?? '').toLowerCase(),
    },
  }).createMachine({
    id: 'wallet-connect',
    initial: 'disconnected',
    context: { method: null, address: null, account: null, welcome: 0, error: null, needsReverify: false },
    states: {
      disconnected: {
        on: {
          OPEN: 'choosing',
          BROWSER: 'connecting',
          SOCIAL: SOCIAL,
          RESTORE: {
            target: 'connected',
            actions: assign({
              method: ({ event }) => (event.custodial ? 'social' : 'browser'),
              address: ({ event }) => event.address,
              error: null,
            }),
          },
        },
      },
      choosing: {
        on: { CLOSE: 'disconnected', BROWSER: 'connecting', SOCIAL: SOCIAL },
      },
      linkingAccount: {
        entry: assign({ error: null, needsReverify: false }),
        invoke: {
          src: 'linkAccount',
          onDone: {
            target: 'connected',
            actions: [
              assign({ method: 'social', address: ({ event }) => event.output.address, welcome: ({ event }) => event.output.welcome }),
              'notifyConnected',
            ],
          },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => failure(event.error) }) },
        },
      },
      connecting: {
        entry: assign({ error: null, needsReverify: false }),
        invoke: {
          src: 'connect',
          onDone: { target: 'verifying', actions: assign({ account: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => failure(event.error) }) },
        },
      },
      verifying: {
        invoke: {
          src: 'verify',
          input: ({ context }) => context.account!,
          onDone: {
            target: 'connected',
            actions: [
              assign({ method: 'browser', address: ({ event }) => event.output.address, welcome: ({ event }) => event.output.welcome }),
              'notifyConnected',
            ],
          },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => failure(event.error) }) },
        },
      },
      connected: {
        on: {
          DISCONNECT: {
            target: 'disconnected',
            actions: assign({ method: null, address: null, account: null, welcome: 0, needsReverify: false }),
          },
          ACCOUNT_CHANGED: { guard: 'otherAddress', actions: assign({ needsReverify: true }) },
          BROWSER: 'connecting',
        },
      },
      failed: {
        entry: 'notifyFailed',
        on: { RETRY: 'connecting', BROWSER: 'connecting', SOCIAL: SOCIAL, OPEN: 'choosing', CLOSE: 'disconnected' },
      },
    },
  })
}
