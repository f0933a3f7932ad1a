import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import type { CommentChange } from '../../backend/comments.ts'
import { useSongCommentCount } from './song-view.ts'

// The song page's comment count did not move when someone commented. It is
// counted again by the server whenever the song's thread changes live.

let push: (change: CommentChange) => void = () => undefined
let count = 2
const commentsFakes = {
  countSongComments: vi.fn(async () => count),
  subscribeSongComments: vi.fn((_id: string, onChange: (c: CommentChange) => void) => {
    push = onChange
    return () => undefined
  }),
}
const { countSongComments } = commentsFakes
const server = fakeBackend({ comments: commentsFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

function Count() {
  const n = useSongCommentCount('neon-drift')
  return <span data-testid="n">{n === null ? '…' : n}</span>
}

beforeEach(() => vi.clearAllMocks())

describe('useSongCommentCount', () => {
  it('shows the server’s count and counts again after live changes, once per burst', async () => {
    const el = render(<Count />)
    await expect.poll(() => el.textContent).toBe('2')
    count = 4
    await settle(() => {
      const row = { id: 'c', song_id: 'neon-drift' } as never
      push({ kind: 'comment', type: 'INSERT', row })
      push({ kind: 'comment', type: 'UPDATE', row })
    })
    await expect.poll(() => el.textContent).toBe('4')
    expect(countSongComments).toHaveBeenCalledTimes(2)
    push({ kind: 'like', type: 'INSERT', commentId: 'c', userId: 'u' })
    await new Promise((r) => setTimeout(r, 300))
    expect(countSongComments).toHaveBeenCalledTimes(2)
  })
})
