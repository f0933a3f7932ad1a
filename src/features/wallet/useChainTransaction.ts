import { useEffect, useState } from 'react'
import { fetchChainTransaction, type ChainTransaction } from '../../backend/web3.ts'
import { errorMessage } from '../../lib/error-message.ts'

/** One transaction's receipt and token, read back from the chain itself. */
export function useChainTransaction(chain: string, hash: string) {
  const [tx, setTx] = useState<ChainTransaction | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    fetchChainTransaction(chain, hash)
      .then((t) => live && setTx(t))
      .catch((e: unknown) => live && setError(errorMessage(e)))
    return () => {
      live = false
    }
  }, [chain, hash])
  return { tx, error }
}
