import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'
import { until } from './support/waiting.ts'
import { DATABASES, serverOn } from './support/each-database.ts'

// docs/security.md item 7: a private profile leaks nothing but its username, through any API. Each test
// is the attack of an outsider: a second ordinary account ('stranger') and a visitor (anon key),
// through supabase-js or raw HTTP, against every path that shows another user's data:
// recommendations, public playlists, song rows and comments, the user page RPCs, follows, NFTs,
// Storage (avatar, banner and published files: download by public and by authenticated URL,
// listing) and Realtime. The owner keeps seeing all of it; a follower keeps seeing their own
// follow (they made it).

type Row = Record<string, unknown>

// A real 1×1 PNG: Storage may check that an image's bytes are one.
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
)
// The first bytes of a WebM file (EBML header).
const WEBM = new Uint8Array([
  0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3, 0x81, 0x08, 0x42, 0x82,
  0x84, 0x77, 0x65, 0x62, 0x6d,
])
const TRACK = 'quiet-maker-track'

describe.each(DATABASES)('a private profile stays private through every API on %s', (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  let owner: TestUser
  let fan: TestUser
  let stranger: TestUser
  let ownerDb: SupabaseClient
  const clients: SupabaseClient[] = []

  async function clientOf(user?: TestUser) {
    const db = supabaseClient(server)
    clients.push(db)
    if (!user) return db
    const { error } = await db.auth.signInWithPassword({ email: user.email, password: user.password })
    if (error) throw error
    return db
  }
  const setPrivate = (value: boolean) =>
    api(server, '/rest/v1/user_settings', {
      token: owner.accessToken,
      body: { user_id: owner.id, public_profile: !value },
      headers: { Prefer: 'resolution=merge-duplicates,return=minimal' },
    })
  /** The outsiders: a visitor (anon key only) and another signed-in account. */
  const outsiders = () => [
    { who: 'visitor', token: undefined as string | undefined },
    { who: 'stranger', token: stranger.accessToken as string | undefined },
  ]

  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    owner = await signUp(server, `quiet-${database}@example.com`, 'owner-pass-1', 'quiet_maker')
    fan = await signUp(server, `fan-${database}@example.com`, 'fan-pass-1', 'loyal_fan')
    stranger = await signUp(server, `stranger-${database}@example.com`, 'stranger-pass-1', 'stranger')
    ownerDb = await clientOf(owner)
    // The owner's published track (as publish_song leaves it), a public playlist, an NFT, a comment
    // and a like on it; the fan follows the owner, the owner follows the stranger; the fan put the
    // track in their own public playlist and listened to it.
    await sql(
      server,
      `insert into public.songs (id, title, artist, duration_seconds, owner_id, genre, audio_url) values ($1, 'Quiet ` +
        `Track', 'quiet_maker', 90, $2, 'lofi', $3)`,
      [TRACK, owner.id, `/storage/v1/object/public/published-audio/${owner.id}/track.webm`],
    )
    await sql(server, "insert into public.playlists (user_id, name, is_public) values ($1, 'Owner list', true)", [owner.id])
    const [fanList] = await sql<{ id: string }>(
      server,
      "insert into public.playlists (user_id, name, is_public) values ($1, 'Fan list', true) returning id",
      [fan.id],
    )
    await sql(server, "insert into public.playlist_songs (playlist_id, song_id, position) values ($1, $2, 0), ($1, 'neon-drift', 1)", [
      fanList!.id,
      TRACK,
    ])
    await sql(server, 'insert into public.follows (follower_id, following_id) values ($1, $2), ($2, $3)', [fan.id, owner.id, stranger.id])
    await sql(server, 'insert into public.user_listening_history (user_id, song_id, seconds) values ($1, $2, 60)', [fan.id, TRACK])
    const comment = await rpc(server, owner.accessToken, 'post_comment', { p_song_id: TRACK, p_body: 'liner notes' })
    expect(comment.status).toBe(200)
    const liked = await rpc(server, fan.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'fan words' })
    await rpc(server, owner.accessToken, 'set_comment_like', { p_comment_id: liked.json.comment.id, p_liked: true })
    const [mint] = await sql<{ id: string }>(
      server,
      'insert into public.mint_requests (user_id, client_key, blockchain, metadata, recipient, royalties, status) ' +
        "values ($1, 'private-mint-1', 'ethereum', '{}', $2, 5, 'completed') returning id",
      [owner.id, `0x${'1'.repeat(40)}`],
    )
    await sql(
      server,
      'insert into public.nfts (mint_request_id, blockchain, contract_address, token_id, transaction_id, metadata, ' +
        "owner_id, royalties) values ($1, 'ethereum', $2, '1', $3, '{}', $4, 5)",
      [mint!.id, `0x${'2'.repeat(40)}`, `0x${'3'.repeat(64)}`, owner.id],
    )
    for (const [bucket, path, bytes, type] of [
      ['avatars', `${owner.id}/avatar`, PNG, 'image/png'],
      ['profile-banners', `${owner.id}/banner`, PNG, 'image/png'],
      ['published-audio', `${owner.id}/track.webm`, WEBM, 'audio/webm'],
      ['published-covers', `${owner.id}/track.png`, PNG, 'image/png'],
    ] as const) {
      const { error } = await ownerDb.storage.from(bucket).upload(path, new Blob([bytes], { type }), { contentType: type, upsert: true })
      expect(error, `${bucket} upload`).toBeNull()
    }
    expect((await setPrivate(true)).status).toBeLessThan(300)
  }, 120_000)
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.removeAllChannels()))
    await stop?.()
  })

  it("recommend_songs never offers a private creator's track, to visitors or to a listener who played it", async () => {
    for (const { who, token } of [...outsiders(), { who: 'fan', token: fan.accessToken }]) {
      for (const mode of ['daily', 'discover']) {
        const r = await api(server, '/rest/v1/rpc/recommend_songs', { token, body: { p_mode: mode, p_limit: 50 } })
        expect(r.status, `${who} ${mode}`).toBe(200)
        expect(
          r.json.map((s: Row) => s.id),
          `${who} ${mode}`,
        ).not.toContain(TRACK)
        expect(
          r.json.some((s: Row) => s.owner_id === owner.id),
          `${who} ${mode}`,
        ).toBe(false)
      }
    }
    const own = await rpc(server, owner.accessToken, 'recommend_songs', { p_mode: 'discover', p_limit: 50 })
    expect(own.json.map((s: Row) => s.id)).toContain(TRACK)
  })

  it("another user's public playlist does not reveal a private creator's track (songs or count)", async () => {
    for (const { who, token } of outsiders()) {
      const r = await api(server, '/rest/v1/rpc/public_playlists', { token, body: { p_user_id: fan.id } })
      expect(r.json, who).toEqual([
        expect.objectContaining({ name: 'Fan list', track_count: 1, songs: [expect.objectContaining({ id: 'neon-drift' })] }),
      ])
      expect((await api(server, '/rest/v1/rpc/public_playlists', { token, body: { p_user_id: owner.id } })).json, who).toEqual([])
    }
    const own = await rpc(server, owner.accessToken, 'public_playlists', { p_user_id: owner.id })
    expect(own.json).toHaveLength(1)
  })

  it('the user page shows the username only: no profile row, tracks, listening or NFTs', async () => {
    for (const { who, token } of outsiders()) {
      expect((await api(server, `/rest/v1/profiles?user_id=eq.${owner.id}&select=user_id,avatar_url,bio`, { token })).json, who).toEqual([])
      expect((await api(server, `/rest/v1/songs?owner_id=eq.${owner.id}&select=id`, { token })).json, who).toEqual([])
      expect((await api(server, `/rest/v1/songs?slug=eq.${TRACK}&select=id`, { token })).json, who).toEqual([])
      expect(
        (await api(server, '/rest/v1/rpc/recent_listens', { token, body: { p_user_id: fan.id } })).json.map((s: Row) => s.song_id),
        who,
      ).not.toContain(TRACK)
      expect((await api(server, `/rest/v1/nfts?owner_id=eq.${owner.id}&select=id`, { token })).json, who).toEqual([])
      expect(
        (await api(server, '/rest/v1/rpc/public_profile_name', { token, body: { p_username: 'quiet_maker' } })).json,
        who,
      ).toMatchObject({ username: 'quiet_maker', private: true })
    }
  })

  it('follows are hidden in both directions from outsiders; each side of a follow still sees it', async () => {
    const follows = (column: 'follower_id' | 'following_id', token?: string) =>
      api(server, `/rest/v1/follows?${column}=eq.${owner.id}&select=follower_id,following_id`, { token }).then((r) => r.json)
    expect(await follows('follower_id')).toEqual([])
    expect(await follows('following_id')).toEqual([])
    const count = await api(server, `/rest/v1/follows?following_id=eq.${owner.id}&select=follower_id`, {
      method: 'HEAD',
      headers: { Prefer: 'count=exact' },
    })
    expect(count.headers.get('content-range')).toBe('*/0')
    // The owner follows the stranger: that one row is the stranger's to see; the owner's followers are not.
    expect(await follows('follower_id', stranger.accessToken)).toEqual([{ follower_id: owner.id, following_id: stranger.id }])
    expect(await follows('following_id', stranger.accessToken)).toEqual([])
    // The fan made their follow and still sees it (the Follow button stays right).
    expect(await follows('following_id', fan.accessToken)).toEqual([{ follower_id: fan.id, following_id: owner.id }])
    expect([...(await follows('follower_id', owner.accessToken)), ...(await follows('following_id', owner.accessToken))]).toHaveLength(2)
  })

  it(
    "comments on a private creator's track and the private user's likes are hidden; their comments elsewhere keep the " + 'username only',
    async () => {
      for (const { who, token } of outsiders()) {
        expect((await api(server, `/rest/v1/comments?song_id=eq.${TRACK}&select=id`, { token })).json, who).toEqual([])
        expect((await api(server, `/rest/v1/comment_likes?user_id=eq.${owner.id}&select=comment_id`, { token })).json, who).toEqual([])
      }
      expect((await api(server, `/rest/v1/comments?song_id=eq.${TRACK}&select=id`, { token: owner.accessToken })).json).toHaveLength(1)
      expect(
        (await api(server, `/rest/v1/comment_likes?user_id=eq.${owner.id}&select=comment_id`, { token: owner.accessToken })).json,
      ).toHaveLength(1)
    },
  )

  it(
    'Storage: the avatar, banner and published files cannot be downloaded (public or authenticated URL) or listed by ' + 'outsiders',
    async () => {
      const objects = [
        ['avatars', `${owner.id}/avatar`],
        ['profile-banners', `${owner.id}/banner`],
      ] as const
      for (const { who, token } of outsiders()) {
        for (const [bucket, path] of objects) {
          for (const route of ['public', 'authenticated']) {
            const r = await api(server, `/storage/v1/object/${route}/${bucket}/${path}`, { token })
            expect(r.status, `${who} ${route} ${bucket}`).toBeGreaterThanOrEqual(400)
          }
        }
        for (const bucket of ['avatars', 'profile-banners', 'published-audio', 'published-covers']) {
          const listed = await api(server, `/storage/v1/object/list/${bucket}`, { token, body: { prefix: owner.id } })
          expect(listed.json, `${who} lists ${bucket}`).toEqual([])
        }
        const published = await api(server, `/storage/v1/object/authenticated/published-audio/${owner.id}/track.webm`, { token })
        expect(published.status, `${who} published audio`).toBeGreaterThanOrEqual(400)
      }
      // supabase-js as a stranger: the same answers.
      const strangerDb = await clientOf(stranger)
      expect((await strangerDb.storage.from('avatars').download(`${owner.id}/avatar`)).data).toBeNull()
      expect((await strangerDb.storage.from('avatars').list(owner.id)).data).toEqual([])
      // The owner still has all of it.
      expect((await ownerDb.storage.from('avatars').download(`${owner.id}/avatar`)).data?.size).toBe(PNG.length)
      expect((await ownerDb.storage.from('profile-banners').download(`${owner.id}/banner`)).data?.size).toBe(PNG.length)
      expect((await ownerDb.storage.from('published-audio').list(owner.id)).data?.map((o) => o.name)).toEqual(['track.webm'])
    },
  )

  it("a public profile's avatar is still served to everyone, through the authenticated route", async () => {
    const path = `${stranger.id}/avatar`
    const strangerDb = await clientOf(stranger)
    expect(
      (
        await strangerDb.storage
          .from('avatars')
          .upload(path, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png', upsert: true })
      ).error,
    ).toBeNull()
    for (const token of [undefined, owner.accessToken]) {
      const r = await api(server, `/storage/v1/object/authenticated/avatars/${path}`, { token })
      expect(r.status).toBe(200)
    }
  })

  it("Realtime: the private user's comments on their hidden track do not reach others; on a public song they do", async () => {
    const watcher = await clientOf(stranger)
    const events: RealtimePostgresChangesPayload<Row>[] = []
    await new Promise<void>((resolve, reject) => {
      watcher
        .channel(`private-watch-${database}`)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'comments' }, (p) => events.push(p))
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'comment_likes' }, (p) => events.push(p))
        .subscribe((status, error) => (status === 'SUBSCRIBED' ? resolve() : status !== 'CLOSED' && reject(error ?? new Error(status))))
    })
    const hidden = await rpc(server, owner.accessToken, 'post_comment', { p_song_id: TRACK, p_body: 'only mine' })
    expect(hidden.status).toBe(200)
    const target = await rpc(server, fan.accessToken, 'post_comment', { p_song_id: 'orbital-haze', p_body: 'public words' })
    await rpc(server, owner.accessToken, 'set_comment_like', { p_comment_id: target.json.comment.id, p_liked: true })
    const visible = await rpc(server, owner.accessToken, 'post_comment', { p_song_id: 'orbital-haze', p_body: 'said in public' })
    expect(await until(() => events.some((e) => (e.new as Row).id === visible.json.comment.id))).toBe(true)
    await new Promise((r) => setTimeout(r, 300))
    expect(events.some((e) => (e.new as Row).id === hidden.json.comment.id)).toBe(false)
    expect(events.some((e) => e.table === 'comment_likes' && (e.new as Row).user_id === owner.id)).toBe(false)
  })

  it('public again: everything shows again', async () => {
    expect((await setPrivate(false)).status).toBeLessThan(300)
    expect((await api(server, `/rest/v1/songs?id=eq.${TRACK}&select=id`)).json).toHaveLength(1)
    expect((await api(server, `/storage/v1/object/authenticated/avatars/${owner.id}/avatar`)).status).toBe(200)
    expect((await api(server, `/rest/v1/follows?following_id=eq.${owner.id}&select=follower_id`)).json).toEqual([{ follower_id: fan.id }])
    const recs = await api(server, '/rest/v1/rpc/recommend_songs', { body: { p_mode: 'discover', p_limit: 50 } })
    expect(recs.json.map((s: Row) => s.id)).toContain(TRACK)
    await setPrivate(true)
  })
})
