import { useState } from 'react'
import { useBackend } from '../../domain/session/backend-context.ts'
import { notify } from '../../lib/notify.ts'
import { refreshWallet } from '../../domain/session/session-sync.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { ledgerChanged } from '../../domain/economy/ledger-cache.ts'

/** Claiming the reward pot into the wallet (the balance and activity are read again after), and unlinking the address. */
export function useRewardClaim() {
  const { claimRewards, unlinkWallet } = useBackend().web3
  const [claiming, setClaiming] = useState(false)

  const claim = async (claimable: number) => {
    if (claimable <= 0) {
      notify('No Rewards to Claim')
      return
    }
    setClaiming(true)
    try {
      const r = await claimRewards()
      if (r.claimed > 0) notify.success('Rewards Claimed!', { description: `${r.claimed} CUBE tokens have been added to your wallet.` })
      else notify('No Rewards to Claim')
      const userId = useSessionStore.getState().user?.id
      if (userId) await refreshWallet(userId)
      await ledgerChanged(userId)
    } catch (e) {
      // The trust rule (supabase/schemas/trust.sql): the server says in words what unlocks claiming.
      const details = typeof e === 'object' && e !== null && 'details' in e && typeof e.details === 'string' ? e.details : ''
      if (errorMessage(e) === 'not_trusted') notify.error('Claiming is locked', { description: details })
      else notify.error('Claim failed', { description: errorMessage(e) })
    } finally {
      setClaiming(false)
    }
  }

  /** Removes the linked address from the account on the server. */
  const unlinkAddress = () => unlinkWallet()

  return { claiming, claim, unlinkAddress }
}
