import { ComingLater } from '../../components/ComingLater.tsx'

export default function PitchdeckPage() {
  return <ComingLater title="Pitch Deck" />
}
