import type { Song } from '../../lib/catalogue/song.ts'
import { selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { HeartToggle } from '../../ui/HeartToggle.tsx'

/**
 * The heart: adds the song to Favorite Tracks or takes it out (synced to the account when signed
 * in). `label` is its accessible name; the player bar says only "Like" so it never shares a name
 * with the Library card of the same song on the page behind it.
 */
export function LikeButton({ song, label, className = '' }: { song: Song; label: string; className?: string }) {
  const liked = usePlaylistStore(selectIsFavourite(song.id))
  return (
    <HeartToggle
      liked={liked}
      onToggle={() => usePlaylistStore.getState().toggleFavourite(song)}
      label={label}
      size={18}
      className={`shrink-0 rounded-full p-2 ${className}`}
    />
  )
}
