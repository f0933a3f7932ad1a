import { ComingLater } from '../../components/ComingLater.tsx'

export default function PlaylistsPage() {
  return <ComingLater title="Playlists" />
}
