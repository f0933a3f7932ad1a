import { ComingLater } from '../../components/ComingLater.tsx'

export default function SharingPage() {
  return <ComingLater title="Share & Earn" />
}
