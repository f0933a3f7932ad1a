import { ComingLater } from '../../components/ComingLater.tsx'

export default function ProfilePage() {
  return <ComingLater title="My Profile" />
}
