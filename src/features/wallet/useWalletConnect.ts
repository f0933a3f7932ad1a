import { useMachine } from '@xstate/react'
import { useEffect, useMemo } from 'react'
import { useBackend } from '../../domain/session/backend-context.ts'
import { notify } from '../../lib/notify.ts'
import { refreshWallet } from '../../domain/session/session-sync.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { browserWalletDeps, watchProvider } from './browser-wallet.ts'
import { createWalletConnectMachine } from './wallet-connect-machine.ts'
import { clearWalletState, loadWalletState, saveWalletState, shortenAddress, type WalletChain } from './wallet-state.ts'
import { walletChanged } from '../../domain/economy/wallet-cache.ts'

/** The wallet-connect machine wired to the browser wallet, the server, toasts and the walletState cache. */
export function useWalletConnect() {
  const { fetchLinkedWallet } = useBackend().web3
  const userId = useSessionStore((s) => s.user?.id ?? null)
  const openAuth = useAuthModalStore((s) => s.open)
  const machine = useMemo(() => createWalletConnectMachine(browserWalletDeps(() => useSessionStore.getState().user?.id ?? null)), [])
  const [state, send] = useMachine(
    machine.provide({
      actions: {
        notifyFailed: ({ context }) => {
          if (context.error)
            notify.error(context.error.title, {
              description: context.error.detail ? `${context.error.description} (${context.error.detail})` : context.error.description,
            })
        },
        notifyConnected: ({ context }) => {
          notify.success('Wallet Connected', {
            description:
              context.welcome > 0
                ? `${context.welcome} CUBE welcome tokens have been added to your wallet.`
                : 'Your wallet is linked to your account.',
          })
          const id = useSessionStore.getState().user?.id
          if (id) void refreshWallet(id)
          void walletChanged(id)
        },
        askToSignIn: () => openAuth('login'),
      },
    }),
  )

  // The cache says connected: re-check with the server (the linked address is the truth).
  useEffect(() => {
    if (!userId) return
    const cached = loadWalletState()
    if (!cached.isConnected) return
    let live = true
    fetchLinkedWallet(userId)
      .then((linked) => {
        if (!live) return
        if (linked) send({ type: 'RESTORE', address: linked.address, custodial: linked.custodial })
        else clearWalletState(cached.selectedChain)
      })
      .catch((error: unknown) => console.warn('Could not re-check the linked wallet', error))
    return () => {
      live = false
    }
  }, [userId, send, fetchLinkedWallet])

  useEffect(
    () =>
      watchProvider(
        (address) => send({ type: 'ACCOUNT_CHANGED', address }),
        () => void walletChanged(useSessionStore.getState().user?.id),
      ),
    [send],
  )

  const connected = state.matches('connected')
  const address = state.context.address
  useEffect(() => {
    const chain = loadWalletState().selectedChain
    if (connected)
      saveWalletState({ isConnected: true, selectedChain: chain, walletAddress: address ? shortenAddress(address) : 'CUBE account' })
  }, [connected, address])

  return {
    state,
    send,
    connected,
    disconnect: () => {
      clearWalletState(loadWalletState().selectedChain)
      send({ type: 'DISCONNECT' })
    },
    setChain: (chain: WalletChain) => saveWalletState({ ...loadWalletState(), selectedChain: chain }),
  }
}
