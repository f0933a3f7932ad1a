import { useEffect, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import { useShareActions } from '../../domain/economy/useShareActions.ts'
import { Icon } from '../../ui/Icon.tsx'
import { HeartToggle } from '../../ui/HeartToggle.tsx'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { catalogueSong } from '../../domain/collection/catalogue-song.ts'
import { catalogueArtistHref } from '../../domain/collection/song-index.ts'
import { PublicDataPage } from './PublicDataPage.tsx'
import { useSongCommentCount, useSongLoader, type SongView } from './song-view.ts'
import { Slot } from '../../ui/slots.tsx'
import { FollowButton } from './FollowButton.tsx'

/** /song/{slug}: a catalogue song's public page (cover, title, artist, play, like, queue, playlist, share). */
export default function SongPage() {
  const { slug = '' } = useParams()
  const loadSong = useSongLoader()
  return (
    <PublicDataPage load={loadSong} name={slug} what="song">
      {(view) => <SongView view={view} />}
    </PublicDataPage>
  )
}

function SongView({ view: { row, creator, source, remixes } }: { view: SongView }) {
  const song = catalogueSong(row)
  const isCurrent = usePlayerStore((s) => s.currentSong?.id === song.id)
  const isPlaying = usePlayerStore((s) => s.isPlaying && s.currentSong?.id === song.id)
  const liked = usePlaylistStore(selectIsFavourite(song.id))
  const [copied, setCopied] = useState(false)
  const comments = useSongCommentCount(row.id)
  const shareActions = useShareActions()

  useEffect(() => {
    document.title = `${row.title} · ${creator ?? row.artist} · CUBE Music`
  }, [row.title, row.artist, creator])

  const play = () => (isCurrent ? usePlayerStore.getState().togglePlay() : usePlayerStore.getState().playSong(song))
  const share = async () => {
    // A signed-in listener copies a tokened link the server credits when someone else opens it.
    if (!(await shareActions.copy({ type: 'song', id: row.slug, altId: row.id, title: row.title }))) return
    setCopied(true)
    setTimeout(() => setCopied(false), 2000)
  }

  return (
    <div className="flex flex-col gap-6">
      <article className="panel flex flex-col gap-6 p-6 md:flex-row" aria-labelledby="song-title" data-testid="song-page">
        <img
          src={song.image}
          alt={`Cover of ${row.title}`}
          className="aspect-square w-full max-w-72 self-center rounded-lg border border-line object-cover md:self-start"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <p className="text-sm tracking-widest text-muted uppercase">{row.genre ?? 'Song'}</p>
          <h1 id="song-title" className="font-display text-3xl font-bold break-words text-primary neon-text">
            {row.title}
          </h1>
          <p className="flex flex-wrap items-center gap-3 text-lg">
            {creator && row.owner_id ? (
              <>
                <Link
                  to={`/user/${encodeURIComponent(creator)}`}
                  className="text-accent underline-offset-4 hover:underline"
                  data-testid="song-artist"
                >
                  {creator}
                </Link>
                <FollowButton profile={{ user_id: row.owner_id, username: creator }} />
              </>
            ) : creator ? (
              <Link
                to={`/user/${encodeURIComponent(creator)}`}
                className="text-accent underline-offset-4 hover:underline"
                data-testid="song-artist"
              >
                {creator}
              </Link>
            ) : row.owner_id === null ? (
              <Link
                to={catalogueArtistHref(row.artist)}
                className="text-accent underline-offset-4 hover:underline"
                data-testid="song-artist"
              >
                {row.artist}
              </Link>
            ) : (
              <span className="text-accent" data-testid="song-artist">
                {row.artist}
              </span>
            )}
          </p>
          {source && (
            <p className="text-sm" data-testid="song-remix-of">
              Remix of{' '}
              <Link to={`/song/${encodeURIComponent(source.slug)}`} className="text-accent underline-offset-4 hover:underline">
                {source.title}
              </Link>{' '}
              <span className="text-muted">by {source.artist}</span>
            </p>
          )}
          <p className="text-sm text-muted">
            {song.duration} · +{row.reward} CUBE per listen ·{' '}
            {row.owner_id ? `published ${new Date(row.created_at).toLocaleDateString()}` : 'CUBE catalogue'} ·{' '}
            <a href="#comments" data-testid="song-comment-count">
              {comments === null ? '…' : `${comments} comment${comments === 1 ? '' : 's'}`}
            </a>
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              onClick={play}
              className="flex items-center gap-2 rounded-full bg-primary px-5 py-2 font-semibold text-bg neon-box"
            >
              <Icon name={isPlaying ? 'pause' : 'play'} size={18} /> {isPlaying ? 'Pause' : 'Play'}
            </button>
            <HeartToggle
              liked={liked}
              onToggle={() => usePlaylistStore.getState().toggleFavourite(song)}
              label={`Like ${row.title}`}
              size={18}
              className="rounded-full border border-line p-2"
            />
            <Slot name="AddToPlaylistMenu" song={song} />
            <button
              type="button"
              onClick={() => usePlayerStore.getState().addToQueue(song)}
              aria-label={`Add ${row.title} to queue`}
              className="rounded-full border border-line p-2 text-muted hover:text-primary"
            >
              <Icon name="plus" size={18} />
            </button>
            <button
              type="button"
              onClick={() => void share()}
              className="flex items-center gap-1 rounded-full border border-line px-3 py-1.5 text-sm text-muted hover:text-primary"
            >
              <Icon name="share" size={16} /> {copied ? 'Link copied' : 'Share'}
            </button>
          </div>
        </div>
      </article>
      <div className="panel p-4">
        <Slot name="SongWaveform" song={song} />
      </div>
      {remixes.length > 0 && (
        <section className="panel p-4" aria-labelledby="song-remixes-heading" data-testid="song-remixes">
          <h2 id="song-remixes-heading" className="mb-2 font-display text-lg font-semibold">
            Remixes ({remixes.length})
          </h2>
          <ul className="flex flex-col gap-1">
            {remixes.map((r) => (
              <li key={r.id}>
                <Link to={`/song/${encodeURIComponent(r.slug)}`} className="text-accent underline-offset-4 hover:underline">
                  {r.title}
                </Link>{' '}
                <span className="text-sm text-muted">by {r.artist}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div id="comments">
        <Slot name="CommentThread" songId={row.id} songTitle={row.title} />
      </div>
    </div>
  )
}
