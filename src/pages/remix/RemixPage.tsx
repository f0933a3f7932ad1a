import { ComingLater } from '../../components/ComingLater.tsx'

export default function RemixPage() {
  return <ComingLater title="Remix Studio" />
}
