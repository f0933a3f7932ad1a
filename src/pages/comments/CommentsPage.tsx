import { ComingLater } from '../../components/ComingLater.tsx'

export default function CommentsPage() {
  return <ComingLater title="Comments & Earn" />
}
