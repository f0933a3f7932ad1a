import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { CommentChange, CommentRow } from '../../backend/comments.ts'
import { commentRow } from '../../../tests/component/comment-row.ts'
import { followThread as follow, threadSnapshot, updateThread, type ThreadCalls } from './comment-thread-store.ts'
import { withRow } from './thread-model.ts'

// The store is handed its server calls, so the test hands it these.
const fetchSongComments = vi.fn<ThreadCalls['fetchSongComments']>()
const fetchLikedIds = vi.fn<ThreadCalls['fetchLikedIds']>(async () => new Set<string>())
const subscribeSongComments = vi.fn<ThreadCalls['subscribeSongComments']>()
const calls: ThreadCalls = { fetchSongComments, fetchLikedIds, subscribeSongComments }
const followThread = (songId: string, userId: string | undefined, listener: () => void) => follow(calls, songId, userId, listener)

const row = commentRow

let pushes: ((change: CommentChange) => void)[] = []
let statuses: ((status: string) => void)[] = []
const unsubscribed = vi.fn()
const settle = () => new Promise((r) => setTimeout(r, 0))

beforeEach(() => {
  vi.clearAllMocks()
  pushes = []
  statuses = []
  fetchSongComments.mockResolvedValue([row('a')])
  subscribeSongComments.mockImplementation((_song, onChange, onStatus) => {
    pushes.push(onChange)
    if (onStatus) statuses.push(onStatus)
    onStatus?.('SUBSCRIBED')
    return unsubscribed
  })
})

describe('comment-thread-store', () => {
  it('two widgets on one song share one read and one channel, and both see a live change', async () => {
    const markers = vi.fn()
    const thread = vi.fn()
    const stopMarkers = followThread('neon-drift', 'u1', markers)
    const stopThread = followThread('neon-drift', 'u1', thread)
    await settle()
    expect(fetchSongComments).toHaveBeenCalledTimes(1)
    expect(fetchLikedIds).toHaveBeenCalledTimes(1)
    expect(subscribeSongComments).toHaveBeenCalledTimes(1)
    expect(threadSnapshot('neon-drift', 'u1')).toMatchObject({ status: 'ready', live: true })
    expect([...threadSnapshot('neon-drift', 'u1').state.rows.keys()]).toEqual(['a'])

    markers.mockClear()
    thread.mockClear()
    pushes[0]!({ kind: 'comment', type: 'INSERT', row: row('b') })
    expect(markers).toHaveBeenCalledTimes(1)
    expect(thread).toHaveBeenCalledTimes(1)
    expect([...threadSnapshot('neon-drift', 'u1').state.rows.keys()].sort()).toEqual(['a', 'b'])

    // The user's own action reaches every widget too.
    updateThread('neon-drift', 'u1', (s) => withRow(s, row('mine', { user_id: 'u1' })))
    expect(threadSnapshot('neon-drift', 'u1').state.rows.has('mine')).toBe(true)
    expect(markers).toHaveBeenCalledTimes(2)

    // The channel stays while one widget still shows the thread, and closes with the last.
    stopMarkers()
    expect(unsubscribed).not.toHaveBeenCalled()
    stopThread()
    expect(unsubscribed).toHaveBeenCalledTimes(1)
    expect(threadSnapshot('neon-drift', 'u1').status).toBe('loading')
  })

  it('another song or another viewer is another thread; a change after the last widget left is ignored', async () => {
    const stopA = followThread('neon-drift', 'u1', () => {})
    const stopB = followThread('chrome-horizon', 'u1', () => {})
    const stopVisitor = followThread('neon-drift', undefined, () => {})
    await settle()
    expect(subscribeSongComments).toHaveBeenCalledTimes(3)
    expect(fetchLikedIds).toHaveBeenCalledTimes(2)
    stopA()
    stopB()
    stopVisitor()
    expect(unsubscribed).toHaveBeenCalledTimes(3)
    pushes[0]!({ kind: 'comment', type: 'INSERT', row: row('late') })
    expect(threadSnapshot('neon-drift', 'u1').state.rows.size).toBe(0)
  })

  it('changes pushed before the read are applied on top of it; a rejoin reads again', async () => {
    let answer!: (rows: CommentRow[]) => void
    fetchSongComments.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    const stop = followThread('neon-drift', 'u1', () => {})
    pushes[0]!({ kind: 'comment', type: 'INSERT', row: row('early') })
    answer([row('a')])
    await settle()
    expect([...threadSnapshot('neon-drift', 'u1').state.rows.keys()].sort()).toEqual(['a', 'early'])

    fetchSongComments.mockResolvedValueOnce([row('a'), row('missed')])
    statuses[0]!('CHANNEL_ERROR')
    expect(threadSnapshot('neon-drift', 'u1').live).toBe(false)
    statuses[0]!('SUBSCRIBED')
    await settle()
    expect(fetchSongComments).toHaveBeenCalledTimes(2)
    expect(threadSnapshot('neon-drift', 'u1').state.rows.has('missed')).toBe(true)
    stop()
  })

  it('a failed first read says so; a failed re-read keeps what was shown', async () => {
    fetchSongComments.mockRejectedValueOnce(new Error('offline'))
    const stop = followThread('neon-drift', 'u1', () => {})
    await settle()
    expect(threadSnapshot('neon-drift', 'u1').status).toBe('error')
    stop()

    const again = followThread('neon-drift', 'u1', () => {})
    await settle()
    expect(threadSnapshot('neon-drift', 'u1').status).toBe('ready')
    fetchSongComments.mockRejectedValueOnce(new Error('offline'))
    statuses.at(-1)!('SUBSCRIBED')
    await settle()
    expect(threadSnapshot('neon-drift', 'u1')).toMatchObject({ status: 'ready' })
    expect(threadSnapshot('neon-drift', 'u1').state.rows.has('a')).toBe(true)
    again()
  })
})
