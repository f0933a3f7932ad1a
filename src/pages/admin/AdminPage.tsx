import { ComingLater } from '../../components/ComingLater.tsx'

export default function AdminPage() {
  return <ComingLater title="Admin Dashboard" />
}
