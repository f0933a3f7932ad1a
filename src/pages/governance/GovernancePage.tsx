import { ComingLater } from '../../components/ComingLater.tsx'

export default function GovernancePage() {
  return <ComingLater title="Governance" />
}
