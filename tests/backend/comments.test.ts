import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'
import { ageAccount } from './support/trust.ts'

// Comments & Earn on the server: what post_comment / set_comment_like / delete_comment credit
// (supabase/schemas/comments.sql), raced and replayed, and what bad input gets.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

let n = 0
async function user(): Promise<TestUser> {
  n += 1
  const u = await signUp(server, `c${n}-${Date.now()}@example.com`, 'pass-word', `c${n}x${Date.now() % 100000}`)
  await rpc(server, u.accessToken, 'init_user_tokens')
  return u
}
const balance = async (u: TestUser) =>
  (await q<{ balance: number }>('select balance from public.user_tokens where user_id = $1', [u.id]))[0]!.balance
const earned = async (u: TestUser, reason: string) =>
  Number(
    (
      await q<{ s: string }>('select coalesce(sum(amount), 0)::text as s from public.token_ledger where user_id = $1 and reason = $2', [
        u.id,
        reason,
      ])
    )[0]!.s,
  )
const ledgerSum = async (u: TestUser) =>
  Number((await q<{ s: string }>('select sum(amount)::text as s from public.token_ledger where user_id = $1', [u.id]))[0]!.s)
/**
 * Two people, not linked (public.accounts_linked, supabase/schemas/trust.sql): accounts older than a day, each
 * calling from its own client address, so replies and likes between them pay.
 */
let addresses = 0
async function person(): Promise<TestUser & { from: string }> {
  const u = await user()
  await ageAccount(server, u.id, 2)
  addresses += 1
  return { ...u, from: `127.0.${addresses}.9` }
}
const from = (u: TestUser) => ('from' in u ? (u.from as string) : undefined)
const post = (u: TestUser, song: string, body: string, parent?: string) =>
  rpc(server, u.accessToken, 'post_comment', { p_song_id: song, p_body: body, ...(parent ? { p_parent_id: parent } : {}) }, from(u))

async function addSongs(count: number, prefix: string) {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`)
  for (const id of ids) await q("insert into public.songs (id, slug, title, artist, duration_seconds) values ($1, $1, 'T', 'A', 60)", [id])
  return ids
}

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  describe('comment_rules: the one source of the constants', () => {
    it('states the rewards, caps, maximum length and level rule', async () => {
      const r = await api(server, '/rest/v1/rpc/comment_rules', { body: {} })
      expect(r.status).toBe(200)
      expect(r.json).toEqual({
        max_length: 2000,
        rewards: { comment: 5, like: 2, reply: 3, reply_author: 3, daily_goal_bonus: 10 },
        daily_caps: { comment: 10, like: 20, reply: 10, reply_author: 10 },
        daily_goal_tracks: 5,
        tracks_per_level: 5,
      })
    })
  })

  describe('posting and rewards', () => {
    it('a comment earns 5 once per track and day: re-posting and delete + re-post earn nothing more', async () => {
      const u = await user()
      const first = await post(u, 'neon-drift', '  Great drop  ')
      expect(first.status, first.text).toBe(200)
      expect(first.json.comment.body).toBe('Great drop')
      expect(first.json.credited).toEqual([{ reason: 'comment', amount: 5 }])
      expect(first.json.balance).toBe(105)
      const again = await post(u, 'neon-drift', 'And again')
      expect(again.json.credited).toEqual([])
      await rpc(server, u.accessToken, 'delete_comment', { p_comment_id: first.json.comment.id })
      await rpc(server, u.accessToken, 'delete_comment', { p_comment_id: again.json.comment.id })
      const reposted = await post(u, 'neon-drift', 'Great drop')
      expect(reposted.json.credited).toEqual([])
      expect(await balance(u)).toBe(105)
      expect(await ledgerSum(u)).toBe(105)
    })

    it('20 concurrent posts on 20 tracks earn at most the cap (10 x 5) and the daily goal bonus once', async () => {
      const u = await user()
      const songs = await addSongs(20, `race-${Date.now()}`)
      const results = await Promise.all(songs.map((s, i) => post(u, s, `comment ${i}`)))
      expect(results.map((r) => r.status)).toEqual(songs.map(() => 200))
      expect(await q('select 1 from public.comments where user_id = $1', [u.id])).toHaveLength(20)
      expect(await earned(u, 'comment')).toBe(50)
      expect(await earned(u, 'comment_goal')).toBe(10)
      expect(await balance(u)).toBe(160)
      expect(await ledgerSum(u)).toBe(160)
      const stats = await rpc(server, u.accessToken, 'my_comment_stats')
      expect(stats.json).toMatchObject({
        total_comments: 20,
        tokens_earned: 60,
        tracks_commented: 20,
        level: 5,
        tracks_to_next_level: 5,
        level_progress: 0,
        goal_tracks_today: 5,
        goal_reached: true,
      })
    })

    it('the daily goal bonus comes at the fifth track, once', async () => {
      const u = await user()
      const songs = await addSongs(6, `goal-${Date.now()}`)
      for (const [i, s] of songs.entries()) {
        const r = await post(u, s, 'nice')
        expect(r.json.credited, `track ${i + 1}`).toEqual(
          i === 4
            ? [
                { reason: 'comment', amount: 5 },
                { reason: 'comment_goal', amount: 10 },
              ]
            : [{ reason: 'comment', amount: 5 }],
        )
      }
      expect(await earned(u, 'comment_goal')).toBe(10)
      const stats = await rpc(server, u.accessToken, 'my_comment_stats')
      expect(stats.json).toMatchObject({
        tracks_commented: 6,
        level: 2,
        tracks_to_next_level: 4,
        level_progress: 20,
        goal_tracks_today: 5,
        goal_reached: true,
      })
    })

    it('like / unlike / like credits the liker once and the count moves by one each time', async () => {
      const author = await person()
      const liker = await person()
      const c = (await post(author, 'circuit-breaker', 'like me')).json.comment
      const like = (liked: boolean) =>
        rpc(server, liker.accessToken, 'set_comment_like', { p_comment_id: c.id, p_liked: liked }, from(liker))
      const a = await like(true)
      expect(a.json).toMatchObject({ liked: true, like_count: 1, credited: [{ reason: 'like', amount: 2 }] })
      expect((await like(false)).json).toMatchObject({ liked: false, like_count: 0, credited: [] })
      expect((await like(true)).json).toMatchObject({ liked: true, like_count: 1, credited: [] })
      // Ten concurrent likes of the same comment: still one like.
      await Promise.all(Array.from({ length: 10 }, () => like(true)))
      expect((await q<{ like_count: number }>('select like_count from public.comments where id = $1', [c.id]))[0]!.like_count).toBe(1)
      expect(await earned(liker, 'like')).toBe(2)
      expect(await balance(liker)).toBe(102)
      // Liking your own comment earns nothing.
      const own = await rpc(server, author.accessToken, 'set_comment_like', { p_comment_id: c.id, p_liked: true }, from(author))
      expect(own.json).toMatchObject({ like_count: 2, credited: [] })
    })

    it(
      'a reply earns 3 for the replier and 3 for the author; a self-reply earns the replier only; replies cannot be ' + 'replied to',
      async () => {
        const author = await person()
        const replier = await person()
        const c = (await post(author, 'rainy-terminal', 'top')).json.comment
        const r = await post(replier, 'rainy-terminal', 'a reply', c.id)
        expect(r.status, r.text).toBe(200)
        expect(r.json.credited).toEqual([{ reason: 'reply', amount: 3 }])
        expect(r.json.comment.parent_id).toBe(c.id)
        expect(await earned(author, 'reply')).toBe(3)
        expect(await earned(replier, 'reply')).toBe(3)
        // A second reply to the same comment by the same user earns neither of them again.
        expect((await post(replier, 'rainy-terminal', 'another', c.id)).json.credited).toEqual([])
        expect(await earned(author, 'reply')).toBe(3)
        // Self-reply: the replier's 3 only.
        const self = await post(author, 'rainy-terminal', 'me again', c.id)
        expect(self.json.credited).toEqual([{ reason: 'reply', amount: 3 }])
        expect(await earned(author, 'reply')).toBe(6)
        expect(await balance(author)).toBe(100 + 5 + 3 + 3)
        const deep = await post(author, 'rainy-terminal', 'deeper', r.json.comment.id)
        expect(deep.status).toBe(400)
        expect(deep.json.message).toBe('reply_to_reply')
      },
    )

    it('daily caps hold under concurrency: 25 likes earn 20 x 2, 12 replies earn 10 x 3 for the replier and for the author', async () => {
      const author = await person()
      const fan = await person()
      const ids: string[] = []
      for (let i = 0; i < 25; i++) ids.push((await post(author, 'low-tide-memory', `c${i}`)).json.comment.id)
      const likes = await Promise.all(
        ids.map((id) => rpc(server, fan.accessToken, 'set_comment_like', { p_comment_id: id, p_liked: true }, from(fan))),
      )
      expect(likes.every((l) => l.status === 200 && l.json.like_count === 1)).toBe(true)
      expect(await earned(fan, 'like')).toBe(40)
      const replies = await Promise.all(ids.slice(0, 12).map((id) => post(fan, 'low-tide-memory', 'reply', id)))
      expect(replies.every((r) => r.status === 200)).toBe(true)
      expect(await earned(fan, 'reply')).toBe(30)
      expect(await earned(author, 'reply')).toBe(30)
      expect(await balance(fan)).toBe(100 + 40 + 30)
      expect(await ledgerSum(author)).toBe(await balance(author))
    })

    it('deleting a comment with replies keeps it as "deleted" with its replies; without replies it goes', async () => {
      const author = await user()
      const replier = await user()
      const c = (await post(author, 'orbital-haze', 'parent')).json.comment
      const reply = (await post(replier, 'orbital-haze', 'child', c.id)).json.comment
      const lone = (await post(author, 'orbital-haze', 'lonely')).json.comment
      expect((await rpc(server, replier.accessToken, 'delete_comment', { p_comment_id: c.id })).status).toBe(403)
      expect((await rpc(server, author.accessToken, 'delete_comment', { p_comment_id: c.id })).json).toEqual({
        id: c.id,
        kept_for_replies: true,
      })
      expect(await q('select deleted, body from public.comments where id = $1', [c.id])).toEqual([{ deleted: true, body: '' }])
      expect(await q('select 1 from public.comments where id = $1', [reply.id])).toHaveLength(1)
      expect((await rpc(server, author.accessToken, 'delete_comment', { p_comment_id: lone.id })).json.kept_for_replies).toBe(false)
      expect(await q('select 1 from public.comments where id = $1', [lone.id])).toHaveLength(0)
      // The last reply going takes the deleted parent with it.
      await rpc(server, replier.accessToken, 'delete_comment', { p_comment_id: reply.id })
      expect(await q('select 1 from public.comments where id = $1', [c.id])).toHaveLength(0)
    })

    it('authors edit their own comments only', async () => {
      const author = await user()
      const other = await user()
      const c = (await post(author, 'neon-drift', 'first')).json.comment
      const edited = await rpc(server, author.accessToken, 'edit_comment', { p_comment_id: c.id, p_body: 'second' })
      expect(edited.json).toMatchObject({ body: 'second' })
      expect(edited.json.edited_at).not.toBeNull()
      expect((await rpc(server, other.accessToken, 'edit_comment', { p_comment_id: c.id, p_body: 'hacked' })).status).toBe(403)
      expect((await q<{ body: string }>('select body from public.comments where id = $1', [c.id]))[0]!.body).toBe('second')
    })
  })

  describe('comments pinned to a moment of the song', () => {
    it('a comment keeps its moment (read back, live to another listener); replies and moments outside the song are refused', async () => {
      const [song] = await addSongs(1, `pinned-${Date.now()}`)
      const author = await user()
      const listener = await user()
      const live = new Promise<Record<string, unknown>>((resolve, reject) => {
        const client = supabaseClient(server)
        client.realtime.setAuth(listener.accessToken)
        const channel = client
          .channel(`pins-${song}`)
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'comments', filter: `song_id=eq.${song}` }, (p) => {
            resolve(p.new)
            void client.removeChannel(channel)
          })
          .subscribe((status) => status === 'CHANNEL_ERROR' && reject(new Error(status)))
      })
      await new Promise((r) => setTimeout(r, 300))
      const pinned = await rpc(server, author.accessToken, 'post_comment', { p_song_id: song, p_body: 'that drop', p_at_seconds: 42.1234 })
      expect(pinned.status, pinned.text).toBe(200)
      expect(pinned.json.comment.at_seconds).toBe(42.123)
      expect(pinned.json.credited).toEqual([{ reason: 'comment', amount: 5 }])
      expect(await live).toMatchObject({ body: 'that drop', at_seconds: 42.123 })
      const read = await api(server, `/rest/v1/comments?song_id=eq.${song}&select=body,at_seconds`)
      expect(read.json).toEqual([{ body: 'that drop', at_seconds: 42.123 }])
      // Not pinned: as before.
      expect((await post(author, song!, 'overall great')).json.comment.at_seconds).toBeNull()
      const refusals = [
        { p_at_seconds: 61 },
        { p_at_seconds: -1 },
        { p_at_seconds: 'NaN' },
        { p_at_seconds: 10, p_parent_id: pinned.json.comment.id },
      ]
      for (const extra of refusals) {
        const r = await rpc(server, listener.accessToken, 'post_comment', { p_song_id: song, p_body: 'x', ...extra })
        expect(r.status, JSON.stringify(extra)).toBe(400)
        expect(r.json.message).toBe('invalid_moment')
        expect(r.json.details).toMatch(/moment/)
      }
      expect(await q('select 1 from public.comments where song_id = $1', [song])).toHaveLength(2)
    })
  })

  describe('bad input: clear errors, nothing stored, the server keeps serving', () => {
    it('refuses a 100 KB comment, an empty one, an unknown song and a caller without a session', async () => {
      const u = await user()
      const before = await q('select 1 from public.comments')
      const big = await post(u, 'neon-drift', 'x'.repeat(100 * 1024))
      expect(big.status).toBe(400)
      expect(big.json).toMatchObject({ code: '22001', message: 'comment_too_long' })
      const max = await post(u, 'neon-drift', 'y'.repeat(2000))
      expect(max.status).toBe(200)
      expect((await post(u, 'neon-drift', 'y'.repeat(2001))).json.message).toBe('comment_too_long')
      expect((await post(u, 'neon-drift', '   \n\t ')).json.message).toBe('empty_comment')
      const unknown = await post(u, 'no-such-song', 'hello')
      expect(unknown.status).toBe(400)
      expect(unknown.json.message).toBe('unknown_song')
      expect((await api(server, '/rest/v1/rpc/post_comment', { body: { p_song_id: 'neon-drift', p_body: 'anon' } })).status).toBe(401)
      expect(await q('select 1 from public.comments')).toHaveLength(before.length + 1)
      expect((await api(server, '/rest/v1/songs?select=id&limit=1')).status).toBe(200)
    })

    it('stores HTML and script text as plain text, exactly as sent', async () => {
      const u = await user()
      const html = '<script>alert(1)</script><img src=x onerror=alert(2)> <a href="javascript:alert(3)">x</a>'
      const r = await post(u, 'neon-drift', html)
      expect(r.status).toBe(200)
      const read = await api(server, `/rest/v1/comments?id=eq.${r.json.comment.id}&select=body`)
      expect(read.json).toEqual([{ body: html }])
    })
  })
})
