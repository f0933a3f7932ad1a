import { ComingLater } from '../../components/ComingLater.tsx'

export default function NowPlayingPage() {
  return <ComingLater title="Now Playing" />
}
