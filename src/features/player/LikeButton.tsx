import type { Song } from '../../lib/catalogue/song.ts'
import { selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { Icon } from '../../ui/Icon.tsx'

/**
 * The heart: adds the song to Favorite Tracks or takes it out (synced to the account when signed
 * in). `label` is its accessible name; the player bar says only "Like" so it never shares a name
 * with the Library card of the same song on the page behind it.
 */
export function LikeButton({ song, label, className = '' }: { song: Song; label: string; className?: string }) {
  const liked = usePlaylistStore(selectIsFavourite(song.id))
  return (
    <button
      type="button"
      onClick={() => usePlaylistStore.getState().toggleFavourite(song)}
      aria-pressed={liked}
      aria-label={label}
      title={liked ? 'Remove from favourites' : 'Add to favourites'}
      className={`shrink-0 rounded-full p-2 ${liked ? 'text-secondary' : 'text-muted hover:text-secondary'} ${className}`}
    >
      <Icon name="heart" size={18} className={liked ? 'fill-current' : ''} />
    </button>
  )
}
