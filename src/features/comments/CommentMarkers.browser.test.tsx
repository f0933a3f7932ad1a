import { beforeEach, describe, expect, it, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type { ReactNode } from 'react'
import '../../styles/index.css'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend, type FakeBackend } from '../../../tests/component/fake-backend.ts'
import { commentRow } from '../../../tests/component/comment-row.ts'
import type { Backend } from '../../domain/session/backend-context.ts'
import type { CommentChange, CommentRow } from '../../backend/comments.ts'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { CommentMarkers } from './CommentMarkers.tsx'
import { CommentThread } from './CommentThread.tsx'

// Comments on the waveform: pinned comments are markers over the waveform at their
// moment, live as the thread is, and seek there; a new comment is pinned to the playhead when the
// listener asks for it while the song plays.

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }))
let push: (change: CommentChange) => void = () => {}

const neon = SAMPLE_SONGS.find((s) => s.id === 'neon-drift')!
const row = (id: string, at: number | null, over: Partial<CommentRow> = {}): CommentRow =>
  commentRow(id, { song_id: neon.id, at_seconds: at, ...over })
const seek = vi.fn()

type Comments = Backend['comments']
// The server as these screens see it: the thread's read and channel, the rules (offline, so the
// fallback shows) and, for a signed-in listener, their posts answered back as stored.
const postComment = vi.fn<Comments['postComment']>()
let server: FakeBackend
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

/** Signed in as u1, whose posted comments the server answers back as stored. */
function signInAndEchoPosts() {
  useSessionStore.getState().setUser({ id: 'u1', email: 'me@cube.test' })
  postComment.mockImplementation(async (_s, body, _p, at) => ({
    comment: row('mine', at ?? null, { user_id: 'u1', username: 'me', body }),
    credited: [],
    balance: 100,
  }))
}

beforeEach(() => {
  vi.clearAllMocks()
  server = fakeBackend({
    comments: {
      fetchSongComments: async () => [row('a', 20), row('b', 60), row('plain', null)],
      fetchLikedIds: async () => new Set<string>(),
      postComment,
      subscribeSongComments: ((_song, onChange, onStatus) => {
        push = onChange
        onStatus?.('SUBSCRIBED')
        return () => {}
      }) satisfies Comments['subscribeSongComments'],
      fetchCommentRules: async () => {
        throw new Error('offline')
      },
    },
  })
  usePlayerStore.setState({ currentSong: neon, position: 33.4, seek })
})

describe('CommentMarkers', () => {
  it('puts each pinned comment at its moment, names it, seeks there, and follows the thread live', async () => {
    const el = render(
      <div className="relative" style={{ width: 400, height: 96 }}>
        <CommentMarkers songId={neon.id} duration={80} onSeek={seek} />
      </div>,
    )
    await expect.poll(() => el.querySelectorAll('[data-testid="waveform-marker"]').length).toBe(2)
    const first = page.getByRole('button', { name: 'Comment by ava at 0:20: comment a' })
    await expect.element(first).toBeVisible()
    const left = (b: Element) => (b.parentElement as HTMLElement).style.left
    const markers = [...el.querySelectorAll('[data-testid="waveform-marker"]')]
    expect(markers.map(left)).toEqual(['25%', '75%'])
    await userEvent.click(first)
    expect(seek).toHaveBeenCalledWith(20)
    // Another listener pins one live; a deleted one goes.
    await settle(() => push({ kind: 'comment', type: 'INSERT', row: row('c', 40, { username: 'kai', body: 'the break' }) }))
    await expect.element(page.getByRole('button', { name: 'Comment by kai at 0:40: the break' })).toBeVisible()
    await settle(() => push({ kind: 'comment', type: 'DELETE', id: 'a' }))
    await expect.poll(() => el.querySelectorAll('[data-testid="waveform-marker"]').length).toBe(2)
  })
})

describe('the thread and its markers on one page', () => {
  it('share one read and one Realtime channel, and a comment pinned in the thread shows on the waveform at once', async () => {
    signInAndEchoPosts()
    const el = render(
      <div>
        <div className="relative" style={{ width: 400, height: 96 }}>
          <CommentMarkers songId={neon.id} duration={80} onSeek={seek} />
        </div>
        <CommentThread songId={neon.id} />
      </div>,
    )
    await expect.poll(() => el.querySelectorAll('[data-testid="waveform-marker"]').length).toBe(2)
    expect(server.count('comments.fetchSongComments')).toBe(1)
    expect(server.count('comments.subscribeSongComments')).toBe(1)
    await userEvent.click(page.getByRole('checkbox', { name: /Pin to the playhead \(0:33\)/ }))
    await userEvent.fill(page.getByLabelText('Add a comment'), 'that drop')
    await userEvent.click(page.getByRole('button', { name: 'Post' }))
    await expect.element(page.getByRole('button', { name: 'Comment by me at 0:33: that drop' })).toBeVisible()
    expect(server.count('comments.fetchSongComments')).toBe(1)
  })
})

describe('pinning a new comment', () => {
  it('while the song plays, "Pin to the playhead" sends the playhead with the comment; unticked it sends none', async () => {
    signInAndEchoPosts()
    render(<CommentThread songId={neon.id} />)
    const pin = page.getByRole('checkbox', { name: /Pin to the playhead \(0:33\)/ })
    await expect.element(pin).toBeVisible()
    await userEvent.click(pin)
    await userEvent.fill(page.getByLabelText('Add a comment'), 'that drop')
    await userEvent.click(page.getByRole('button', { name: 'Post' }))
    await expect.poll(() => postComment.mock.calls.length).toBe(1)
    expect(postComment.mock.calls[0]).toEqual([neon.id, 'that drop', undefined, 33.4])
    await expect.element(page.getByRole('button', { name: 'Play from 0:33' })).toBeVisible()
    await userEvent.click(pin)
    await userEvent.fill(page.getByLabelText('Add a comment'), 'overall')
    await userEvent.click(page.getByRole('button', { name: 'Post' }))
    await expect.poll(() => postComment.mock.calls.length).toBe(2)
    expect(postComment.mock.calls[1]).toEqual([neon.id, 'overall', undefined, undefined])
  })

  it('offers no pin when the song is not the one playing, and a moment reads as plain text', async () => {
    useSessionStore.getState().setUser({ id: 'u1', email: 'me@cube.test' })
    usePlayerStore.setState({ currentSong: SAMPLE_SONGS.find((s) => s.id !== neon.id)! })
    const el = render(<CommentThread songId={neon.id} />)
    await expect.poll(() => el.querySelectorAll('[data-testid="comment-moment"]').length).toBe(2)
    expect(el.querySelector('input[type="checkbox"]')).toBeNull()
    expect(el.querySelector('[data-testid="comment-moment"]')!.tagName).toBe('SPAN')
  })
})
