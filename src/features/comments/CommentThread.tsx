import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import type { CommentRow } from '../../backend/comments.ts'
import { Icon } from '../../ui/Icon.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { relativeTime } from '../../lib/relative-time.ts'
import { formatTime } from '../../lib/time-format.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { loadCommentRules, useCommentRules } from './comment-rules.ts'
import { threadEntries } from './thread-model.ts'
import { useCommentThread } from './useCommentThread.ts'

/**
 * A text box that ignores empty or whitespace-only text and refuses more than the server's
 * maximum with a message (the server refuses it too). `onSend` resolves true when it was stored.
 */
function CommentForm({
  label,
  submitLabel,
  initial = '',
  onSend,
  onCancel,
  focusOnOpen = false,
  testId,
  extra,
}: {
  label: string
  submitLabel: string
  initial?: string
  onSend: (text: string) => Promise<boolean>
  onCancel?: () => void
  focusOnOpen?: boolean
  testId: string
  /** More controls under the box (the top-level form's "pin to the playhead"). */
  extra?: ReactNode
}) {
  const max = useCommentRules((s) => s.rules.max_length)
  const [text, setText] = useState(initial)
  const [sending, setSending] = useState(false)
  const id = useId()
  const box = useRef<HTMLTextAreaElement>(null)
  // A reply or edit box takes the focus when it opens (the user just asked for it).
  useEffect(() => {
    if (focusOnOpen) box.current?.focus()
  }, [focusOnOpen])
  const tooLong = text.trim().length > max
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (sending || tooLong || text.trim() === '') return
    setSending(true)
    const ok = await onSend(text.trim())
    setSending(false)
    if (ok) setText('')
  }
  return (
    <form onSubmit={submit} className="space-y-2" data-testid={testId}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea
        id={id}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={label}
        ref={box}
        rows={2}
        aria-invalid={tooLong}
        aria-describedby={`${id}-count`}
        className={
          'w-full rounded-md border border-line bg-bg/70 p-2 text-sm text-fg placeholder:text-muted ' +
          'focus:border-primary focus:outline-none'
        }
      />
      {extra}
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs">
        <span id={`${id}-count`} className={tooLong ? 'text-red-400' : 'text-muted'} role={tooLong ? 'alert' : undefined}>
          {tooLong
            ? `Comments can be at most ${max.toLocaleString('en-US')} characters (${text.trim().length.toLocaleString('en-US')} now).`
            : `${text.trim().length}/${max.toLocaleString('en-US')}`}
        </span>
        <span className="flex gap-2">
          {onCancel && (
            <button type="button" onClick={onCancel} className="rounded border border-line px-3 py-1 text-muted hover:text-fg">
              Cancel
            </button>
          )}
          <button
            type="submit"
            disabled={sending || tooLong}
            className="rounded bg-primary/20 px-3 py-1 font-semibold text-primary hover:bg-primary/30 disabled:opacity-50"
          >
            {sending ? 'Sending…' : submitLabel}
          </button>
        </span>
      </div>
    </form>
  )
}

/** A pinned comment's moment: seeks there while the song is the one playing, else just says it. */
function MomentChip({ songId, at }: { songId: string; at: number }) {
  const current = usePlayerStore((s) => s.currentSong?.id === songId)
  const label = `at ${formatTime(at)}`
  if (!current) return <span data-testid="comment-moment">{label}</span>
  return (
    <button
      type="button"
      onClick={() => usePlayerStore.getState().seek(at)}
      aria-label={`Play from ${formatTime(at)}`}
      data-testid="comment-moment"
      className="rounded border border-accent/60 px-1 text-accent hover:bg-accent/10"
    >
      {label}
    </button>
  )
}

/** "Pin to the playhead" for a new comment, shown while this song is the one in the player. */
function PinToPlayhead({ songId, pinned, onChange }: { songId: string; pinned: boolean; onChange: (pinned: boolean) => void }) {
  const current = usePlayerStore((s) => s.currentSong?.id === songId)
  const second = usePlayerStore((s) => (s.currentSong?.id === songId ? Math.floor(s.position) : 0))
  if (!current) return null
  return (
    <label className="flex items-center gap-2 text-xs text-muted">
      <input type="checkbox" checked={pinned} onChange={(e) => onChange(e.target.checked)} className="accent-accent" />
      Pin to the playhead ({formatTime(second)}): it shows on the waveform, where a click picks the moment
    </label>
  )
}

interface ItemProps {
  comment: CommentRow
  isReply: boolean
  mine: boolean
  liked: boolean
  signedIn: boolean
  replying: boolean
  onReplyToggle: () => void
  onReply: (text: string) => Promise<boolean>
  onLike: () => void
  onEdit: (text: string) => Promise<boolean>
  onDelete: () => void
}

function CommentItem({ comment, isReply, mine, liked, signedIn, replying, onReplyToggle, onReply, onLike, onEdit, onDelete }: ItemProps) {
  const [editing, setEditing] = useState(false)
  if (comment.deleted) {
    return (
      <p className="text-sm italic text-muted" data-testid="comment-deleted">
        comment deleted
      </p>
    )
  }
  return (
    <div data-testid={isReply ? 'reply' : 'comment'} data-comment-id={comment.id}>
      <div className="flex flex-wrap items-baseline gap-2 text-xs text-muted">
        <span className="font-semibold text-secondary">{comment.username}</span>
        <time dateTime={comment.created_at}>{relativeTime(comment.created_at)}</time>
        {comment.edited_at && <span>(edited)</span>}
        {comment.at_seconds !== null && !isReply && <MomentChip songId={comment.song_id} at={comment.at_seconds} />}
      </div>
      {editing ? (
        <CommentForm
          label="Edit your comment"
          submitLabel="Save"
          initial={comment.body}
          focusOnOpen
          testId="comment-edit-form"
          onSend={async (t) => {
            const ok = await onEdit(t)
            if (ok) setEditing(false)
            return ok
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        // Plain text: React escapes it, and links are not turned into anchors.
        <p className="mt-1 whitespace-pre-wrap break-words text-sm text-fg" data-testid="comment-body">
          {comment.body}
        </p>
      )}
      <div className="mt-1 flex flex-wrap items-center gap-3 text-xs">
        <button
          type="button"
          onClick={onLike}
          disabled={!signedIn}
          aria-pressed={liked}
          aria-label={`${liked ? 'Unlike' : 'Like'} (${comment.like_count} likes)`}
          className={
            `inline-flex items-center gap-1 rounded px-1 py-0.5 disabled:opacity-50 ` +
            `${liked ? 'text-accent' : 'text-muted hover:text-fg'}`
          }
          data-testid="like-button"
        >
          <Icon name="heart" size={12} /> <span data-testid="like-count">{comment.like_count}</span>
        </button>
        {!isReply && signedIn && (
          <button type="button" onClick={onReplyToggle} aria-expanded={replying} className="text-muted hover:text-fg">
            Reply
          </button>
        )}
        {mine && !editing && (
          <>
            <button type="button" onClick={() => setEditing(true)} className="text-muted hover:text-fg">
              Edit
            </button>
            <button type="button" onClick={onDelete} className="text-muted hover:text-red-400">
              Delete
            </button>
          </>
        )}
      </div>
      {replying && (
        <div className="mt-2">
          <CommentForm
            label={`Reply to ${comment.username}`}
            submitLabel="Send reply"
            focusOnOpen
            testId="reply-form"
            onSend={onReply}
            onCancel={onReplyToggle}
          />
        </div>
      )}
    </div>
  )
}

/** The threaded comments of one song, live: for Comments & Earn, Now Playing and /song/{slug}. */
export function CommentThread({ songId, songTitle }: { songId: string; songTitle?: string }) {
  const { state, status, live, userId, post, like, edit, remove } = useCommentThread(songId)
  const openAuth = useAuthModalStore((s) => s.open)
  const [replyTo, setReplyTo] = useState<string | null>(null)
  const [pinned, setPinned] = useState(false)
  /** The playhead when posting, if the user pinned the comment and this song is still the one playing. */
  const moment = () => {
    const player = usePlayerStore.getState()
    return pinned && player.currentSong?.id === songId ? Math.round(player.position * 1000) / 1000 : undefined
  }
  const { fetchCommentRules } = useBackend().comments
  useEffect(() => void loadCommentRules(fetchCommentRules), [fetchCommentRules])
  const entries = threadEntries(state)
  const headingId = useId()

  const item = (c: CommentRow, isReply: boolean) => (
    <CommentItem
      comment={c}
      isReply={isReply}
      mine={c.user_id === userId}
      liked={state.liked.has(c.id)}
      signedIn={!!userId}
      replying={replyTo === c.id}
      onReplyToggle={() => setReplyTo((r) => (r === c.id ? null : c.id))}
      onReply={async (t) => {
        const ok = await post(t, c.id)
        if (ok) setReplyTo(null)
        return ok
      }}
      onLike={() => void like(c.id, !state.liked.has(c.id))}
      onEdit={(t) => edit(c.id, t)}
      onDelete={() => void remove(c.id)}
    />
  )

  return (
    <section
      className="panel space-y-4 p-4"
      aria-labelledby={headingId}
      data-testid="comment-thread"
      data-live={live}
      data-song-id={songId}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="font-display text-lg font-bold text-primary">
          Comments{songTitle ? <span className="text-fg"> · {songTitle}</span> : null}
        </h2>
        <span className="text-xs text-muted" aria-live="polite">
          {live ? 'Live' : 'Connecting…'}
        </span>
      </div>
      {userId ? (
        <CommentForm
          label="Add a comment"
          submitLabel="Post"
          testId="comment-form"
          onSend={(t) => post(t, undefined, moment())}
          extra={<PinToPlayhead songId={songId} pinned={pinned} onChange={setPinned} />}
        />
      ) : (
        <p className="text-sm text-muted">
          <button type="button" className="text-primary underline" onClick={() => openAuth('login')}>
            Sign in
          </button>{' '}
          to comment and earn CUBE.
        </p>
      )}
      {status === 'loading' && <p className="text-sm text-muted">Loading comments…</p>}
      {status === 'error' && (
        <p role="alert" className="text-sm text-red-400">
          The comments could not be loaded.
        </p>
      )}
      {status === 'ready' && entries.length === 0 && <p className="text-sm text-muted">No comments yet. Be the first.</p>}
      <ul className="space-y-4" aria-label="Comments">
        {entries.map(({ comment, replies }) => (
          <li key={comment.id} className="rounded-lg border border-line/70 bg-bg/50 p-3">
            {item(comment, false)}
            {replies.length > 0 && (
              <ul
                className="mt-3 space-y-3 border-l border-line/70 pl-4"
                aria-label={`Replies to ${comment.deleted ? 'a deleted comment' : comment.username}`}
              >
                {replies.map((r) => (
                  <li key={r.id}>{item(r, true)}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
