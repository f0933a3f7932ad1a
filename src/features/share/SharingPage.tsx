import { ComingLater } from '../../ui/ComingLater.tsx'

export default function SharingPage() {
  return <ComingLater title="Share & Earn" />
}
