import type { Song } from '../../lib/catalogue/song.ts'
import { Slot } from '../../ui/slots.tsx'
import { LikeButton } from './LikeButton.tsx'
import { ShareSongButton } from './ShareSongButton.tsx'

/** Now Playing's actions on the song: like, share (a tokened link) and add to playlist (the playlists feature's menu). */
export function NowPlayingActions({ song }: { song: Song }) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2" data-testid="np-actions">
      <LikeButton song={song} label={`Like ${song.title}`} className="border border-line" />
      <ShareSongButton song={song} />
      {/* At the row's right end: its menu opens leftwards from the button, so it stays on a 375 px screen. */}
      <div className="ml-auto rounded-full border border-line p-0.5">
        <Slot name="AddToPlaylistMenu" song={song} />
      </div>
    </div>
  )
}
