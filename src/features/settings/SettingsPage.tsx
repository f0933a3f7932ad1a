import { ComingLater } from '../../ui/ComingLater.tsx'

export default function SettingsPage() {
  return <ComingLater title="Settings" />
}
