import { ComingLater } from '../../components/ComingLater.tsx'

export default function StudioPage() {
  return <ComingLater title="My Music Studio" />
}
