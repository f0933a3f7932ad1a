import { ComingLater } from '../../components/ComingLater.tsx'

export default function MintPage() {
  return <ComingLater title="NFT Minting Studio" />
}
