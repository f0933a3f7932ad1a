import { FunctionsHttpError } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { api, supabaseClient, startTestServer, type TestServer } from './support/local-backend.ts'
import { hashToken } from '../../supabase/local/auth/sessions.ts'
import { startMailCatcher, type MailCatcher } from '../../supabase/local/mail-catcher/catcher.ts'
import { passTime } from './support/listening.ts'
import { startPostgresCluster, type PostgresCluster } from './support/postgres-cluster.ts'
import { CATALOGUE_SONGS, SAMPLE_SONGS } from '../../src/lib/catalogue/sample-songs.ts'

// Records what the pinned supabase-js (2.109.0) actually sends and checks the local server's
// answers are what it expects: the same client code then works against hosted Supabase. The
// whole suite runs on embedded PGlite and on a throwaway PostgreSQL 15 through pg: it is the gate
// for every endpoint (supabase/CONTEXT.md).

interface Sent {
  method: string
  path: string
  search: URLSearchParams
  headers: Headers
  body: string | undefined
  status: number
  responseHeaders: Headers
}

let server: TestServer
const sent: Sent[] = []

const recordingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  const body = init?.body === undefined || init.body === null ? undefined : String(init.body)
  const response = await fetch(request)
  const url = new URL(request.url)
  sent.push({
    method: request.method,
    path: url.pathname,
    search: url.searchParams,
    headers: request.headers,
    body,
    status: response.status,
    responseHeaders: response.headers,
  })
  return response
}

const last = (path: string) => {
  const match = sent.filter((s) => s.path === path).at(-1)
  if (!match) throw new Error(`supabase-js sent nothing to ${path}`)
  return match
}

describe.each(['PGlite', 'PostgreSQL 15'] as const)('supabase-js 2.109 against the local backend on %s', (database) => {
  let cluster: PostgresCluster | undefined
  let catcher: MailCatcher
  let running = false
  let skipReason = ''
  beforeAll(async () => {
    sent.length = 0
    // Auth mail goes to a real SMTP catcher, so the tokens its links carry can be redeemed.
    catcher = await startMailCatcher()
    if (database === 'PGlite') server = await startTestServer({ smtpUrl: catcher.smtpUrl })
    else {
      const started = await startPostgresCluster()
      if (typeof started === 'string') {
        skipReason = started
        console.warn(`PostgreSQL contract tests skipped: ${started}`)
        return
      }
      cluster = started
      server = await startTestServer({ databaseUrl: cluster.url, smtpUrl: catcher.smtpUrl })
    }
    running = true
  }, 60_000)
  afterAll(async () => {
    if (running) await server.close()
    cluster?.stop()
    await catcher?.close()
  })
  beforeEach((context) => {
    if (!running) context.skip(skipReason)
  })
  const client = () => supabaseClient(server, recordingFetch)

  it('auth: signUp, signIn (wrong and right), refresh with rotation, getUser, signOut', async () => {
    const supabase = client()
    const signUp = await supabase.auth.signUp({
      email: 'Contract@Example.com',
      password: 'contract-pass',
      options: { data: { username: 'contract' } },
    })
    expect(signUp.error).toBeNull()
    expect(signUp.data.session?.access_token).toBeTruthy()
    expect(signUp.data.user).toMatchObject({ email: 'contract@example.com', user_metadata: { username: 'contract' } })
    const sentSignUp = last('/auth/v1/signup')
    expect(sentSignUp.method).toBe('POST')
    expect(sentSignUp.headers.get('apikey')).toBe(server.keys.anonKey)
    expect(JSON.parse(sentSignUp.body!)).toMatchObject({
      email: 'Contract@Example.com',
      password: 'contract-pass',
      data: { username: 'contract' },
    })

    const fresh = client()
    const wrong = await fresh.auth.signInWithPassword({ email: 'contract@example.com', password: 'nope-nope' })
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' })
    const right = await fresh.auth.signInWithPassword({ email: 'contract@example.com', password: 'contract-pass' })
    expect(right.error).toBeNull()
    expect(last('/auth/v1/token').search.get('grant_type')).toBe('password')
    const session = right.data.session!
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    expect(session.expires_at! - Date.now() / 1000).toBeGreaterThan(3500)

    const refreshed = await fresh.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    expect(last('/auth/v1/token').search.get('grant_type')).toBe('refresh_token')
    expect(refreshed.data.session!.refresh_token).not.toBe(session.refresh_token)
    // Within GoTrue's reuse interval (10 s) the rotated-out token still refreshes: a page reloaded
    // while its refresh was answered never stored the new token, and stays signed in.
    const lost = await api(server, '/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: session.refresh_token } })
    expect(lost.status).toBe(200)
    expect(lost.json.refresh_token).not.toBe(session.refresh_token)
    expect(lost.json.refresh_token).not.toBe(refreshed.data.session!.refresh_token)
    expect((await api(server, '/auth/v1/user', { token: lost.json.access_token as string })).status).toBe(200)
    // After it, the rotated-out token is dead, and reusing it ends that session.
    await server.db.query("update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = $1", [
      hashToken(session.refresh_token),
    ])
    const reuse = await api(server, '/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: session.refresh_token } })
    expect(reuse.status).toBe(400)
    expect(reuse.json.code).toBe('refresh_token_already_used')
    const ended = await api(server, '/auth/v1/user', { token: lost.json.access_token as string })
    expect(ended.json.code).toBe('session_not_found')
    const afterReuse = await fresh.auth.getUser()
    expect(afterReuse.error?.name).toBe('AuthSessionMissingError')

    const again = client()
    await again.auth.signInWithPassword({ email: 'contract@example.com', password: 'contract-pass' })
    const user = await again.auth.getUser()
    expect(user.data.user?.email).toBe('contract@example.com')
    expect(last('/auth/v1/user').headers.get('authorization')).toMatch(/^Bearer /)
    const token = (await again.auth.getSession()).data.session!.access_token
    const signOut = await again.auth.signOut()
    expect(signOut.error).toBeNull()
    expect(last('/auth/v1/logout')).toMatchObject({ method: 'POST', status: 204 })
    expect(last('/auth/v1/logout').search.get('scope')).toBe('global')
    const gone = await api(server, '/auth/v1/user', { token })
    expect(gone.status).toBe(403)
    expect(gone.json.code).toBe('session_not_found')
  })

  it('auth: the server-reported errors supabase-js surfaces', async () => {
    const supabase = client()
    const duplicate = await supabase.auth.signUp({ email: 'contract@example.com', password: 'contract-pass' })
    expect(duplicate.error).toMatchObject({ status: 422, code: 'user_already_exists', message: 'User already registered' })
    const weak = await supabase.auth.signUp({ email: 'weak@example.com', password: '123' })
    expect(weak.error?.name).toBe('AuthWeakPasswordError')
  })

  it('auth: mailed links as supabase-js asks for them: resetPasswordForEmail, verifyOtp, resend, updateUser({ email })', async () => {
    const supabase = client()
    await supabase.auth.signUp({ email: 'links@example.com', password: 'links-pass-1' })
    const reset = await supabase.auth.resetPasswordForEmail('links@example.com', { redirectTo: `${server.url}/app/reset-password` })
    expect(reset).toEqual({ data: {}, error: null })
    const sentRecover = last('/auth/v1/recover')
    expect(sentRecover).toMatchObject({ method: 'POST', status: 200 })
    expect(sentRecover.search.get('redirect_to')).toBe(`${server.url}/app/reset-password`)
    expect(JSON.parse(sentRecover.body!)).toMatchObject({ email: 'links@example.com', code_challenge: null, code_challenge_method: null })
    let link: string | undefined
    for (let i = 0; i < 100 && !link; i++) {
      link = catcher.messages().find((m) => m.to.includes('links@example.com'))?.links[0]
      if (!link) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const token = new URL(link!).searchParams.get('token')!
    const verified = await client().auth.verifyOtp({ type: 'recovery', token_hash: token })
    expect(verified.error).toBeNull()
    expect(verified.data.session?.user.email).toBe('links@example.com')
    expect(JSON.parse(last('/auth/v1/verify').body!)).toMatchObject({ type: 'recovery', token_hash: token })
    const reused = await client().auth.verifyOtp({ type: 'recovery', token_hash: token })
    expect(reused.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' })

    expect(await supabase.auth.resend({ type: 'signup', email: 'nobody@example.com' })).toEqual({
      data: { user: null, session: null },
      error: null,
    })
    expect(JSON.parse(last('/auth/v1/resend').body!)).toMatchObject({ type: 'signup', email: 'nobody@example.com' })
    const changed = await supabase.auth.updateUser(
      { email: 'links-new@example.com', current_password: 'links-pass-1' },
      { emailRedirectTo: `${server.url}/app/settings` },
    )
    expect(changed.error).toBeNull()
    expect(changed.data.user).toMatchObject({ email: 'links@example.com', new_email: 'links-new@example.com' })
    expect(last('/auth/v1/user').search.get('redirect_to')).toBe(`${server.url}/app/settings`)
  })

  it('data: select single/maybeSingle, count head, insert+select, update, upsert, delete, rpc, functions.invoke', async () => {
    const supabase = client()
    await supabase.auth.signInWithPassword({ email: 'contract@example.com', password: 'contract-pass' })

    const song = await supabase.from('songs').select('id, title, reward').eq('id', 'orbital-haze').single()
    expect(song.error).toBeNull()
    expect(song.data).toEqual({ id: 'orbital-haze', title: 'Orbital Haze', reward: 5 })
    expect(last('/rest/v1/songs').headers.get('accept')).toBe('application/vnd.pgrst.object+json')
    expect(last('/rest/v1/songs').headers.get('accept-profile')).toBe('public')

    const none = await supabase.from('songs').select('*').eq('id', 'missing').single()
    expect(none.error).toMatchObject({
      code: 'PGRST116',
      details: 'The result contains 0 rows',
      message: 'Cannot coerce the result to a single JSON object',
    })
    expect(none.status).toBe(406)
    const many = await supabase.from('songs').select('*').single()
    expect(many.error?.details).toBe(`The result contains ${CATALOGUE_SONGS.length} rows`)

    const maybe = await supabase.from('songs').select('*').eq('id', 'missing').maybeSingle()
    expect(maybe).toMatchObject({ data: null, error: null })

    const ordered = await supabase
      .from('songs')
      .select('id')
      .in('id', ['neon-drift', 'orbital-haze', 'circuit-breaker'])
      .order('reward', { ascending: false })
      .limit(2)
    expect(ordered.data).toEqual([{ id: 'orbital-haze' }, { id: 'circuit-breaker' }])
    const ranged = await supabase
      .from('songs')
      .select('id')
      .in(
        'id',
        SAMPLE_SONGS.map((s) => s.id),
      )
      .order('id')
      .range(1, 2)
    expect(ranged.data).toEqual([{ id: 'low-tide-memory' }, { id: 'neon-drift' }])
    const like = await supabase.from('songs').select('id').ilike('title', '%HAZE%')
    expect(like.data).toEqual([{ id: 'orbital-haze' }])

    const counted = await supabase.from('songs').select('*', { count: 'exact', head: true }).gte('reward', 2)
    expect(counted).toMatchObject({ count: CATALOGUE_SONGS.length, data: null, error: null })
    expect(last('/rest/v1/songs')).toMatchObject({ method: 'HEAD' })
    expect(last('/rest/v1/songs').headers.get('prefer')).toContain('count=exact')

    const created = await supabase.from('playlists').insert({ name: 'Night Drive' }).select().single()
    expect(created.error).toBeNull()
    expect(created.status).toBe(201)
    const me = (await supabase.auth.getUser()).data.user!.id
    expect(created.data).toMatchObject({ name: 'Night Drive', user_id: me })
    expect(last('/rest/v1/playlists').headers.get('prefer')).toContain('return=representation')
    const playlistId = (created.data as { id: string }).id

    const songs = await supabase.from('playlist_songs').insert([
      { playlist_id: playlistId, song_id: 'neon-drift', position: 0 },
      { playlist_id: playlistId, song_id: 'orbital-haze', position: 1 },
    ])
    expect(songs).toMatchObject({ error: null, status: 201 })
    const withSongs = await supabase.from('playlists').select('id, name, playlist_songs(song_id, position)').eq('id', playlistId).single()
    expect(withSongs.data).toEqual({
      id: playlistId,
      name: 'Night Drive',
      playlist_songs: [
        { song_id: 'neon-drift', position: 0 },
        { song_id: 'orbital-haze', position: 1 },
      ],
    })
    const newestFirst = await supabase
      .from('playlists')
      .select('id, playlist_songs(song_id)')
      .eq('id', playlistId)
      .order('position', { referencedTable: 'playlist_songs', ascending: false })
      .limit(1, { referencedTable: 'playlist_songs' })
      .single()
    expect(newestFirst.data).toEqual({ id: playlistId, playlist_songs: [{ song_id: 'orbital-haze' }] })
    expect(last('/rest/v1/playlists').search.get('playlist_songs.order')).toBe('position.desc')
    const stray = await supabase.from('playlists').select('id').order('position', { referencedTable: 'playlist_songs' })
    expect(stray.error?.code).toBe('PGRST100')

    const renamed = await supabase.from('playlists').update({ name: 'Late Drive' }).eq('id', playlistId)
    expect(renamed).toMatchObject({ error: null, status: 204 })
    const check = await supabase.from('playlists').select('name').eq('id', playlistId).maybeSingle()
    expect(check.data).toEqual({ name: 'Late Drive' })

    const fav1 = await supabase.from('favourites').upsert({ song_id: 'neon-drift' }, { onConflict: 'user_id,song_id' })
    const fav2 = await supabase.from('favourites').upsert({ song_id: 'neon-drift' }, { onConflict: 'user_id,song_id' }).select()
    expect(fav1.error).toBeNull()
    expect(fav2.data).toHaveLength(1)
    expect(last('/rest/v1/favourites').search.get('on_conflict')).toBe('user_id,song_id')
    expect(last('/rest/v1/favourites').headers.get('prefer')).toContain('resolution=merge-duplicates')
    const ignored = await supabase
      .from('favourites')
      .upsert({ song_id: 'neon-drift' }, { onConflict: 'user_id,song_id', ignoreDuplicates: true })
    expect(ignored.error).toBeNull()

    const removed = await supabase.from('playlists').delete().eq('id', playlistId)
    expect(removed).toMatchObject({ error: null, status: 204 })
    const cascade = await supabase.from('playlist_songs').select('*', { count: 'exact', head: true }).eq('playlist_id', playlistId)
    expect(cascade.count).toBe(0)

    const invoked = await supabase.functions.invoke('init-user-tokens')
    expect(invoked.error).toBeNull()
    expect(invoked.data).toEqual({ wallet: { balance: 100, daily_earned: 0 } })
    expect(last('/functions/v1/init-user-tokens').method).toBe('POST')

    const started = await supabase.rpc('listen_start', { p_song_id: 'orbital-haze', p_play_id: 'contract-play' })
    expect(started.error).toBeNull()
    const session = (started.data as { session_id: string }).session_id
    await passTime(server, session, 35)
    const listen = await supabase.rpc('listen_report', { p_session_id: session, p_playing: true })
    expect(listen.error).toBeNull()
    expect(listen.data).toMatchObject({
      session_id: session,
      heard_seconds: 35,
      credited: 5,
      balance: 105,
      daily_earned: 5,
      listens_today: 1,
      daily_cap: 20,
      cap_reached: false,
      reason: 'credited',
      needs_interaction: false,
    })
    const spend = await supabase.rpc('spend_tokens', { p_amount: 1000, p_reason: 'remix', p_ref: 'r1' })
    expect(spend.error).toMatchObject({ code: 'P0001', message: 'insufficient_balance' })
    const spent = await supabase.rpc('spend_tokens', { p_amount: 5, p_reason: 'remix', p_ref: 'r1' })
    expect(spent.data).toEqual({ balance: 100 })
    expect((await supabase.rpc('is_admin')).data).toBe(false)
    const ledger = await supabase.from('token_ledger').select('amount, reason').order('id')
    expect(ledger.data).toEqual([
      { amount: 100, reason: 'welcome' },
      { amount: 5, reason: 'listen' },
      { amount: -5, reason: 'remix' },
    ])

    const forbidden = await supabase.from('user_tokens').update({ balance: 1e6 }).eq('user_id', me)
    expect(forbidden.error).toMatchObject({ code: '42501' })
    expect(forbidden.status).toBe(403)
  })

  it('profiles: username from metadata, else the e-mail local part, made unique; a taken name asked for is refused', async () => {
    const supabase = client()
    const a = await supabase.auth.signUp({ email: 'dj.nova@example.com', password: 'nova-pass' })
    // A name asked for that reads as a taken one (capitals count as the same) is refused: the app asks
    // username_problem() first and shows its words (tests/backend/account-settings.test.ts); the
    // sign-up itself fails as GoTrue's does when the new-user trigger refuses (500 "Database error
    // saving new user").
    const refused = await supabase.auth.signUp({
      email: 'other.nova@example.com',
      password: 'nova-pass',
      options: { data: { username: 'DJ.Nova' } },
    })
    expect(refused.data.user).toBeNull()
    expect(refused.error?.status).toBe(500)
    const b = await supabase.auth.signUp({ email: 'dj.nova@elsewhere.example.com', password: 'nova-pass' })
    await supabase.auth.signUp({ email: 'nova.taken@example.com', password: 'nova-pass', options: { data: { username: 'nova_taken' } } })
    const c = await supabase.auth.signUp({ email: 'dj.nova@third.example.com', password: 'nova-pass' })
    const names = await supabase
      .from('profiles')
      .select('user_id, username')
      .in('user_id', [a.data.user!.id, b.data.user!.id, c.data.user!.id])
    const byId = new Map((names.data ?? []).map((r) => [r.user_id, r.username]))
    expect([byId.get(a.data.user!.id), byId.get(b.data.user!.id), byId.get(c.data.user!.id)]).toEqual(['dj.nova', 'dj.nova-1', 'dj.nova-2'])
    // c is signed in now: it may edit its own profile, and a taken name (one the username rule of
    // supabase/schemas/profiles.sql allows) is a conflict.
    const edited = await supabase
      .from('profiles')
      .update({ bio: 'beats', avatar_url: '/images/a.svg' })
      .eq('user_id', c.data.user!.id)
      .select('bio')
      .single()
    expect(edited.data).toEqual({ bio: 'beats' })
    const taken = await supabase.from('profiles').update({ username: 'nova_taken' }).eq('user_id', c.data.user!.id)
    expect(taken.status).toBe(409)
    expect(taken.error?.code).toBe('23505')
    const others = await supabase.from('profiles').update({ bio: 'hacked' }).eq('user_id', a.data.user!.id).select()
    expect(others.data).toEqual([])
  })

  it('signed out: anon reads the catalogue, gets nothing private, and functions.invoke fails with FunctionsHttpError', async () => {
    const supabase = client()
    const catalogue = await supabase.from('songs').select('id')
    expect(catalogue.data).toHaveLength(CATALOGUE_SONGS.length)
    expect(last('/rest/v1/songs').headers.get('authorization')).toBe(`Bearer ${server.keys.anonKey}`)
    const wallet = await supabase.from('user_tokens').select('*')
    expect(wallet.error?.code).toBe('42501')
    const invoked = await supabase.functions.invoke('init-user-tokens')
    expect(invoked.error).toBeInstanceOf(FunctionsHttpError)
    expect((invoked.error as FunctionsHttpError).context.status).toBe(401)
  })
})
