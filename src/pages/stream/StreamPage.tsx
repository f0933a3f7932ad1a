import { ComingLater } from '../../components/ComingLater.tsx'

export default function StreamPage() {
  return <ComingLater title="Stream" />
}
