import type { AuthChangeEvent, Session } from '@supabase/supabase-js'
import { notify } from '../../lib/notify.ts'
import { pendingTotpFactor } from '../../backend/auth.ts'
import { supabase } from '../../backend/client.ts'
import { fetchIsAdmin, fetchWallet, initUserTokens } from '../../backend/wallet.ts'
import { useSessionStore } from './session-store.ts'
import { stepUpInProgress } from './two-factor-gate.ts'

export const WALLET_INIT_FAILED = {
  title: 'Wallet initialization failed',
  description: 'There was an error setting up your wallet. Please try again.',
}

type SignInListener = (userId: string) => void | Promise<void>
const signInListeners = new Set<SignInListener>()

/** Runs after every sign-in (login, registration, restored session), once the wallet call is made. */
export function onSignedIn(listener: SignInListener): () => void {
  signInListeners.add(listener)
  return () => signInListeners.delete(listener)
}

let announceWallet = false
/**
 * The next wallet initialisation follows a login or registration in this tab: confirm it with a
 * notify. Called with false when that attempt failed, so a later restored session stays quiet.
 */
export function announceNextWalletInit(on = true) {
  announceWallet = on
}

/** Rereads the wallet basics from the server into the session store. */
export async function refreshWallet(userId: string): Promise<void> {
  try {
    const wallet = await fetchWallet(userId)
    if (wallet && useSessionStore.getState().user?.id === userId) useSessionStore.getState().setWallet(wallet)
  } catch (error) {
    // Token fetch errors are logged only; the last known figures stay on screen.
    console.warn('wallet fetch failed', error)
  }
}

const inFlight = new Map<string, Promise<void>>()

/** Creates the wallet if needed (server-side, once) and loads it; safe to call any number of times. */
export function initialiseWallet(userId: string): Promise<void> {
  const running = inFlight.get(userId)
  if (running) return running
  const run = (async () => {
    const store = useSessionStore.getState()
    if (!store.wallet) store.setWalletStatus('loading')
    const announce = announceWallet
    announceWallet = false
    try {
      const basics = await initUserTokens()
      if (useSessionStore.getState().user?.id !== userId) return
      const current = useSessionStore.getState().wallet
      useSessionStore.getState().setWallet({ ...basics, listens_today: current?.listens_today ?? 0 })
      if (announce) notify.success('Wallet initialized', { description: `Balance: ${basics.balance} CUBE` })
      await refreshWallet(userId)
    } catch (error) {
      console.error('wallet initialisation failed', error)
      if (useSessionStore.getState().user?.id !== userId) return
      useSessionStore.getState().setWalletStatus('error')
      notify.error(WALLET_INIT_FAILED.title, { description: WALLET_INIT_FAILED.description })
    }
  })().finally(() => inFlight.delete(userId))
  inFlight.set(userId, run)
  return run
}

async function loadRole(userId: string) {
  try {
    const isAdmin = await fetchIsAdmin()
    if (useSessionStore.getState().user?.id === userId) useSessionStore.getState().setIsAdmin(isAdmin)
  } catch (error) {
    console.warn('role check failed', error)
    if (useSessionStore.getState().user?.id === userId) useSessionStore.getState().setIsAdmin(false)
  }
}

let followedUpFor: string | undefined

async function handle(event: AuthChangeEvent, session: Session | null) {
  const store = useSessionStore.getState()
  if (!session?.user) {
    followedUpFor = undefined
    store.setUser(null)
    return
  }
  // Two-factor on and only a password proven: not signed in yet. The login form asks for the code;
  // a session restored in that state (the code was never given) is ended here.
  if (pendingTotpFactor(session)) {
    followedUpFor = undefined
    store.setUser(null)
    if (!stepUpInProgress()) await supabase().auth.signOut({ scope: 'local' })
    return
  }
  const { id, email } = session.user
  store.setUser({ id, email: email ?? '' })
  if (event === 'SIGNED_IN' || event === 'INITIAL_SESSION' || event === 'MFA_CHALLENGE_VERIFIED') {
    await Promise.all([initialiseWallet(id), loadRole(id)])
    // supabase-js repeats SIGNED_IN when a tab regains focus; the follow-ups belong to a real sign-in.
    if (followedUpFor === id) return
    followedUpFor = id
    for (const listener of signInListeners) {
      try {
        await listener(id)
      } catch (error) {
        console.error('sign-in follow-up failed', error)
      }
    }
  }
}

let started = false

/** Makes the session store follow supabase-js's auth events for the life of the page. */
export function startSessionSync(): void {
  if (started) return
  started = true
  supabase().auth.onAuthStateChange((event, session) => {
    // supabase-js holds its auth lock while subscribers run; calling back into it here would deadlock.
    setTimeout(() => void handle(event, session), 0)
  })
}
