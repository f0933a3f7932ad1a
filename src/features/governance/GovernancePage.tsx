import { ComingLater } from '../../ui/ComingLater.tsx'

export default function GovernancePage() {
  return <ComingLater title="Governance" />
}
