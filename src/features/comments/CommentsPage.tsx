import { useEffect, useMemo, useState } from 'react'
import { Link } from 'react-router-dom'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { SimpleTabs } from '../../ui/SimpleTabs.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { loadCommentRules, useCommentRules } from './comment-rules.ts'
import { CommentThread } from './CommentThread.tsx'
import { useCommentThread } from './useCommentThread.ts'
import { useCommentStats, useMyComments } from './useMyComments.ts'

type Tab = 'current' | 'mine'
const TABS = [
  { key: 'current', label: 'Current Track' },
  { key: 'mine', label: 'My Comments' },
] as const

function Card({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <section className="panel space-y-3 p-4" data-testid={testId}>
      <h2 className="text-sm font-semibold uppercase tracking-widest text-muted">{title}</h2>
      {children}
    </section>
  )
}

function Bar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-2 overflow-hidden rounded-full bg-line/60"
    >
      <div className="h-full rounded-full bg-gradient-to-r from-primary to-secondary" style={{ width: `${percent}%` }} />
    </div>
  )
}

function MyComments({ userId }: { userId: string }) {
  const { rows, songs } = useMyComments(userId)
  const [selected, setSelected] = useState<string | null>(null)
  const playSong = usePlayerStore((s) => s.playSong)
  const works = useMemo(() => [...new Set((rows ?? []).map((r) => r.song_id))], [rows])
  const current = selected ?? works[0] ?? null
  const { state, edit } = useCommentThread(current ?? undefined)
  const mine = [...state.rows.values()]
    .filter((r) => r.user_id === userId && !r.deleted)
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
  const [editing, setEditing] = useState<string | null>(null)
  const [draft, setDraft] = useState('')
  const max = useCommentRules((s) => s.rules.max_length)

  if (rows === null) return <p className="text-sm text-muted">Loading your comments…</p>
  if (works.length === 0) return <p className="text-sm text-muted">You have not commented on any track yet.</p>
  const sample = current ? SAMPLE_SONGS.find((s) => s.id === current) : undefined
  return (
    <div className="grid gap-4 md:grid-cols-[16rem_minmax(0,1fr)]">
      <ul className="space-y-1" aria-label="Works you commented on">
        {works.map((id) => (
          <li key={id}>
            <button
              type="button"
              onClick={() => setSelected(id)}
              aria-current={id === current}
              className={
                `w-full rounded px-3 py-2 text-left text-sm ` +
                `${id === current ? 'bg-primary/20 text-primary' : 'text-fg hover:bg-line/40'}`
              }
            >
              <span className="block font-semibold">{songs.get(id)?.title ?? id}</span>
              <span className="block text-xs text-muted">{songs.get(id)?.artist ?? ''}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="panel space-y-3 p-4" data-testid="my-comment-detail">
        <h3 className="font-display text-lg font-bold text-primary">{current ? (songs.get(current)?.title ?? current) : ''}</h3>
        {mine.map((c) => (
          <div key={c.id} className="rounded border border-line/70 p-3">
            {editing === c.id ? (
              <form
                onSubmit={async (e) => {
                  e.preventDefault()
                  if (draft.trim() && draft.trim().length <= max && (await edit(c.id, draft.trim()))) setEditing(null)
                }}
                className="space-y-2"
              >
                <label className="sr-only" htmlFor={`edit-${c.id}`}>
                  Edit Comment
                </label>
                <textarea
                  id={`edit-${c.id}`}
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  rows={3}
                  className="w-full rounded-md border border-line bg-bg/70 p-2 text-sm text-fg"
                />
                {draft.trim().length > max && (
                  <p role="alert" className="text-xs text-red-400">
                    Comments can be at most {max.toLocaleString('en-US')} characters.
                  </p>
                )}
                <div className="flex gap-2 text-sm">
                  <button type="submit" className="rounded bg-primary/20 px-3 py-1 font-semibold text-primary">
                    Save
                  </button>
                  <button type="button" onClick={() => setEditing(null)} className="rounded border border-line px-3 py-1 text-muted">
                    Cancel
                  </button>
                </div>
              </form>
            ) : (
              <p className="whitespace-pre-wrap break-words text-sm text-fg">{c.body}</p>
            )}
            <p className="mt-1 text-xs text-muted">
              {new Date(c.created_at).toLocaleString('en-US')}
              {c.parent_id ? ' · reply' : ''}
            </p>
          </div>
        ))}
        <div className="flex flex-wrap gap-2 text-sm">
          {mine[0] && editing === null && (
            <button
              type="button"
              onClick={() => {
                setEditing(mine[0]!.id)
                setDraft(mine[0]!.body)
              }}
              className="rounded border border-primary/60 px-3 py-1 text-primary hover:bg-primary/10"
            >
              Edit Comment
            </button>
          )}
          {sample ? (
            <button
              type="button"
              onClick={() => playSong(sample)}
              className="rounded border border-secondary/60 px-3 py-1 text-secondary hover:bg-secondary/10"
            >
              Play Track
            </button>
          ) : current ? (
            <Link to={`/song/${current}`} className="rounded border border-secondary/60 px-3 py-1 text-secondary hover:bg-secondary/10">
              Play Track
            </Link>
          ) : null}
        </div>
      </div>
    </div>
  )
}

export default function CommentsPage() {
  const userId = useSessionStore((s) => s.user?.id)
  const song = usePlayerStore((s) => s.currentSong)
  const rules = useCommentRules((s) => s.rules)
  const openAuth = useAuthModalStore((s) => s.open)
  const stats = useCommentStats(userId)
  const [tab, setTab] = useState<Tab>('current')
  const { fetchCommentRules } = useBackend().comments
  useEffect(() => {
    document.title = 'Comments & Earn · CUBE Music'
    void loadCommentRules(fetchCommentRules)
  }, [fetchCommentRules])
  const show = (v: number | undefined) => (v === undefined ? (userId ? '…' : '—') : String(v))
  const goalPercent = stats ? Math.round((100 * stats.goal_tracks_today) / stats.goal_tracks) : 0

  return (
    <section className="mx-auto max-w-5xl space-y-6 p-6">
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Comments &amp; Earn</h1>
        <p className="mt-1 text-muted">
          Comment {rules.rewards.comment} CUBE (first comment on a track each day) · like given {rules.rewards.like} · reply{' '}
          {rules.rewards.reply} to you and {rules.rewards.reply_author} to the author. Credited by the server, up to{' '}
          {rules.daily_caps.comment} tracks, {rules.daily_caps.like} likes and {rules.daily_caps.reply} replies a day.
        </p>
      </header>
      {!userId && (
        <p className="text-sm text-muted">
          <button type="button" className="text-primary underline" onClick={() => openAuth('login')}>
            Sign in
          </button>{' '}
          to see your figures and earn CUBE.
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-3">
        <Card title="Comment Stats" testId="comment-stats">
          <dl className="grid grid-cols-2 gap-2">
            <div>
              <dt className="text-xs text-muted">Total Comments</dt>
              <dd className="font-display text-2xl font-bold" data-testid="stat-total-comments">
                {show(stats?.total_comments)}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted">Tokens Earned</dt>
              <dd className="font-display text-2xl font-bold text-accent" data-testid="stat-tokens-earned">
                {show(stats?.tokens_earned)}
              </dd>
            </div>
          </dl>
        </Card>
        <Card title="Engagement Level" testId="engagement-level">
          <p className="flex justify-between text-sm">
            <span>
              Level <strong data-testid="stat-level">{show(stats?.level)}</strong>
            </span>
            <span className="text-muted">Next: Level {stats ? stats.level + 1 : '…'}</span>
          </p>
          <Bar percent={stats?.level_progress ?? 0} label="Progress to the next level" />
          <p className="text-xs text-muted">
            {stats
              ? `${stats.level_progress}% · Comment on ${stats.tracks_to_next_level} more ` +
                `track${stats.tracks_to_next_level === 1 ? '' : 's'} to level up`
              : '…'}
          </p>
          <p className="text-xs text-muted">Level = 1 + one per {rules.tracks_per_level} different tracks you have comments on.</p>
        </Card>
        <Card title="Rewards" testId="comment-rewards">
          <p className="flex justify-between text-sm">
            <span>Daily Goal</span>
            <span data-testid="stat-daily-goal">{stats ? `${stats.goal_tracks_today}/${stats.goal_tracks}` : '…'}</span>
          </p>
          <Bar percent={goalPercent} label="Daily goal" />
          <p className="text-xs text-muted">
            {goalPercent}% ·{' '}
            {stats?.goal_reached
              ? `Bonus +${rules.rewards.daily_goal_bonus} CUBE earned today`
              : `Bonus +${rules.rewards.daily_goal_bonus} CUBE at ${rules.daily_goal_tracks} tracks commented today`}
          </p>
        </Card>
      </div>
      <SimpleTabs tabs={TABS} value={tab} onChange={setTab} label="Comments" idPrefix="comments" />
      <div role="tabpanel" id={`comments-panel-${tab}`} aria-labelledby={`comments-tab-${tab}`}>
        {tab === 'current' ? (
          song && song.audioUrl.startsWith('idb:') ? (
            <p className="text-sm text-muted">
              Your own recordings stay in your browser, so they have no public comments. Play a catalogue track to comment.
            </p>
          ) : song ? (
            <CommentThread songId={song.id} songTitle={song.title} />
          ) : (
            <p className="text-sm text-muted">
              Play a track to see and write its comments.{' '}
              <Link to="/app/library" className="text-primary underline">
                Open the Library
              </Link>
            </p>
          )
        ) : userId ? (
          <MyComments userId={userId} />
        ) : (
          <p className="text-sm text-muted">Sign in to see your comments.</p>
        )}
      </div>
    </section>
  )
}
