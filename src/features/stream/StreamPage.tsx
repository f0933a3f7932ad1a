import { ComingLater } from '../../ui/ComingLater.tsx'

export default function StreamPage() {
  return <ComingLater title="Stream" />
}
