// The server's side of minting on an EVM chain with ethers: the minter key signs CubeMusicNFT.mint
// and the token id comes from the receipt's Transfer event. Shared by the local backend (the
// embedded chain) and a hosted deployment (a testnet RPC URL).
import { Contract, type Signer } from 'ethers'
import type { ChainTransaction, Minter } from '../_shared/chain.ts'

export function evmMinter(signer: Signer, contractAddress: string, abi: readonly unknown[]): Minter {
  const contract = new Contract(contractAddress, abi as never, signer)
  const tokenIdOf = (logs: readonly { address: string; topics: readonly string[]; data: string }[]): string | null => {
    for (const log of logs) {
      if (log.address.toLowerCase() !== contractAddress.toLowerCase()) continue
      const parsed = contract.interface.parseLog({ topics: [...log.topics], data: log.data })
      if (parsed?.name === 'Transfer') return (parsed.args[2] as bigint).toString()
    }
    return null
  }
  // One minter key signs every mint: submissions go one at a time, so each takes the next nonce
  // (two concurrent sends would both read the same pending nonce and one would be refused).
  // Receipts are awaited concurrently.
  let sending: Promise<unknown> = Promise.resolve()
  type Sent = {
    wait(): Promise<{ hash: string; status: number | null; logs: { address: string; topics: string[]; data: string }[] } | null>
  }
  const send = (args: unknown[]): Promise<Sent> => {
    const next = sending.then(() => contract.getFunction('mint')(...args) as Promise<Sent>)
    sending = next.catch(() => undefined)
    return next
  }
  return {
    contractAddress,
    async mint({ to, tokenUri, royaltyReceiver, royaltyBps }) {
      const tx = await send([to, tokenUri, royaltyReceiver, BigInt(royaltyBps)])
      const receipt = await tx.wait()
      if (!receipt || receipt.status !== 1) throw new Error('The mint transaction failed on chain')
      const tokenId = tokenIdOf(receipt.logs)
      if (tokenId === null) throw new Error('The mint transaction has no Transfer event')
      return { transactionHash: receipt.hash, tokenId }
    },
    async readTransaction(hash): Promise<ChainTransaction | null> {
      const provider = signer.provider
      if (!provider) return null
      const receipt = await provider.getTransactionReceipt(hash)
      if (!receipt) return null
      const tokenId = tokenIdOf(receipt.logs)
      const read = async <T>(fn: string, ...args: unknown[]): Promise<T | null> => {
        try {
          return (await contract.getFunction(fn).staticCall(...args)) as T
        } catch {
          return null
        }
      }
      const owner = tokenId === null ? null : await read<string>('ownerOf', BigInt(tokenId))
      const tokenUri = tokenId === null ? null : await read<string>('tokenURI', BigInt(tokenId))
      const royalty = tokenId === null ? null : await read<[string, bigint]>('royaltyInfo', BigInt(tokenId), 10_000n)
      return {
        hash: receipt.hash,
        status: receipt.status === 1 ? 'success' : 'reverted',
        blockNumber: receipt.blockNumber,
        from: receipt.from,
        to: receipt.to,
        gasUsed: receipt.gasUsed.toString(),
        tokenId,
        owner,
        tokenUri,
        royalty: royalty ? { receiver: royalty[0], amount: royalty[1].toString() } : null,
      }
    },
  }
}
