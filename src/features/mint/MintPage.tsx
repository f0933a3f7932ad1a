import { ComingLater } from '../../ui/ComingLater.tsx'

export default function MintPage() {
  return <ComingLater title="NFT Minting Studio" />
}
