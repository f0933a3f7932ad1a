import { ComingLater } from '../../components/ComingLater.tsx'

export default function WhitepaperPage() {
  return <ComingLater title="Whitepaper" />
}
