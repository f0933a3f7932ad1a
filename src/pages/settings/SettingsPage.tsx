import { ComingLater } from '../../components/ComingLater.tsx'

export default function SettingsPage() {
  return <ComingLater title="Settings" />
}
