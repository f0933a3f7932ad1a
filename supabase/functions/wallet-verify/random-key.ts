// A fresh key for an account's custodial wallet, from ethers' CSPRNG. Shared by both runtimes.
import { Wallet } from 'ethers'
import type { NewKey } from './handler.ts'

export const randomEthereumKey: NewKey = () => {
  const wallet = Wallet.createRandom()
  return { address: wallet.address, privateKey: wallet.privateKey }
}
