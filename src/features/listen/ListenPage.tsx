import { ComingLater } from '../../ui/ComingLater.tsx'

export default function ListenPage() {
  return <ComingLater title="Listen to Earn" />
}
