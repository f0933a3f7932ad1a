import type { Song } from '../lib/catalogue/song.ts'

/** Cover, title, artist and duration: the middle of every compact song row. */
export function SongSummary({ song }: { song: Song }) {
  return (
    <>
      <img src={song.image} alt="" className="h-9 w-9 rounded border border-line object-cover" />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-semibold">{song.title}</span>
        <span className="block truncate text-xs text-muted">{song.artist}</span>
      </span>
      <span className="text-xs text-muted tabular-nums">{song.duration}</span>
    </>
  )
}
