import { ComingLater } from '../../ui/ComingLater.tsx'

export default function RemixPage() {
  return <ComingLater title="Remix Studio" />
}
