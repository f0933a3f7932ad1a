import type { Song } from '../lib/catalogue/song.ts'

/**
 * Cover, title, artist and duration: the middle of every compact song row. Below 640 px the cover
 * goes and the duration joins the artist's line, so the title keeps room to be read (at 375 px it
 * was cut to two letters).
 */
export function SongSummary({ song }: { song: Song }) {
  return (
    <>
      <img src={song.image} alt="" className="hidden h-9 w-9 shrink-0 rounded border border-line object-cover sm:block" />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-semibold" data-testid="song-summary-title">
          {song.title}
        </span>
        <span className="block truncate text-xs text-muted">
          {song.artist}
          <span className="tabular-nums sm:hidden"> · {song.duration}</span>
        </span>
      </span>
      <span className="hidden text-xs text-muted tabular-nums sm:inline">{song.duration}</span>
    </>
  )
}
