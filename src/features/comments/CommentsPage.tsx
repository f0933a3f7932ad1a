import { ComingLater } from '../../ui/ComingLater.tsx'

export default function CommentsPage() {
  return <ComingLater title="Comments & Earn" />
}
