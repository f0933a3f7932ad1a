import { ComingLater } from '../../components/ComingLater.tsx'

export default function ListenPage() {
  return <ComingLater title="Listen to Earn" />
}
