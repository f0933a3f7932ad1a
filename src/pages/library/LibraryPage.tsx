import { ComingLater } from '../../components/ComingLater.tsx'

export default function LibraryPage() {
  return <ComingLater title="Your Library" />
}
