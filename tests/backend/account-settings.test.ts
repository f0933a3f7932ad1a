import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AVATAR_BUCKET,
  AVATAR_MAX_BYTES,
  DEFAULT_SETTINGS,
  avatarPath,
  fetchUserSettings,
  saveProfileFields,
  saveUserSettings,
  uploadAvatar,
} from '../../src/backend/account-settings.ts'
import { PASSWORD_MIN, USERNAME_MESSAGE, USERNAME_TAKEN_MESSAGE, usernameProblem } from '../../src/lib/profile-rules.ts'
import { api, signUp, sql, startTestServer, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'
import { withSignature } from './support/media-bytes.ts'
import { rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'

let server: TestServer
let owner: TestUser
let other: TestUser
let ownerDb: SupabaseClient
let otherDb: SupabaseClient

async function clientOf(user: TestUser) {
  const db = supabaseClient(server)
  const { error } = await db.auth.signInWithPassword({ email: user.email, password: user.password })
  if (error) throw error
  return db
}

beforeAll(async () => {
  server = await startTestServer()
  owner = await signUp(server, 'settings-owner@example.com', 'owner-pass', 'settings_owner')
  other = await signUp(server, 'settings-other@example.com', 'other-pass', 'settings_other')
  ownerDb = await clientOf(owner)
  otherDb = await clientOf(other)
}, 60_000)
afterAll(() => server?.close())

const CASES: Record<string, RlsCase> = {
  user_settings: {
    target: ({ owner: { id } }) => `user_id=eq.${id}`,
    insert: ({ owner: { id } }) => ({ user_id: id, notify_replies: false }),
    update: { public_profile: false },
    inserted: async ({ exists, owner: { id } }) =>
      exists('select 1 from public.user_settings where user_id = $1 and notify_replies = false', [id]),
    untouched: async ({ exists, owner: { id } }) =>
      exists('select 1 from public.user_settings where user_id = $1 and public_profile = true', [id]),
    // One row per user: before an insert the owner has none yet (as before their first save).
    reset: async ({ q, owner: { id } }, op) => {
      await q('delete from public.user_settings where user_id = $1', [id])
      if (op !== 'insert') await q('insert into public.user_settings (user_id) values ($1)', [id])
    },
    expect: {
      anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'allowed', update: 'allowed', delete: 'denied' },
      other: { select: 'none', insert: 'denied', update: 'none', delete: 'denied' },
    },
  },
}

describe('RLS matrix of the account tables', () => {
  rlsMatrixTests(CASES, () => rlsContext(server, owner, other))
})

describe('profile rules, enforced by the server', () => {
  it('username: 3–30 letters, digits, ., - or _, unique; bio at most 300 characters; a clear message each', async () => {
    await saveProfileFields(ownerDb, owner.id, { username: 'Neo_Runner-7', bio: 'Night drives.' })
    expect(await sql(server, 'select username, bio from public.profiles where user_id = $1', [owner.id])).toEqual([
      { username: 'Neo_Runner-7', bio: 'Night drives.' },
    ])
    await expect(saveProfileFields(ownerDb, owner.id, { username: 'settings_other', bio: '' })).rejects.toThrow('That username is taken')
    await expect(saveProfileFields(ownerDb, owner.id, { username: 'ab', bio: '' })).rejects.toThrow(USERNAME_MESSAGE)
    await expect(saveProfileFields(ownerDb, owner.id, { username: 'has space', bio: '' })).rejects.toThrow(
      `${USERNAME_MESSAGE.slice(0, -1)}: a space is not allowed.`,
    )
    await expect(saveProfileFields(ownerDb, owner.id, { username: 'Neo_Runner-7', bio: 'x'.repeat(301) })).rejects.toThrow('at most 300')
    // The server refuses the same without the client's checks (raw PATCH as supabase-js sends it).
    const raw = async (body: Record<string, unknown>) =>
      api(server, `/rest/v1/profiles?user_id=eq.${owner.id}`, {
        method: 'PATCH',
        token: owner.accessToken,
        body,
        headers: { Prefer: 'return=representation' },
      })
    const badName = await raw({ username: '<script>' })
    expect(badName.status).toBe(400)
    expect(badName.json).toMatchObject({ message: 'invalid_username', details: `${USERNAME_MESSAGE.slice(0, -1)}: "<" is not allowed.` })
    expect((await raw({ bio: 'y'.repeat(301) })).json).toMatchObject({ message: 'bio_too_long' })
    expect((await raw({ username: 'settings_other' })).status).toBe(409)
    expect(await sql(server, 'select username, bio from public.profiles where user_id = $1', [owner.id])).toEqual([
      { username: 'Neo_Runner-7', bio: 'Night drives.' },
    ])
  })

  it('a legacy name from before the rule keeps working until its owner changes it', async () => {
    const legacy = await signUp(server, 'legacy@example.com', 'legacy-pass', 'legacy_name')
    // As sign-up stored names before supabase/schemas/profiles.sql (triggers bypassed).
    await sql(
      server,
      `do $$ begin set local session_replication_role = replica;
       update public.profiles set username = 'x y' where user_id = '${legacy.id}'; end $$`,
    )
    const bioOnly = await api(server, `/rest/v1/profiles?user_id=eq.${legacy.id}`, {
      method: 'PATCH',
      token: legacy.accessToken,
      body: { bio: 'still me' },
      headers: { Prefer: 'return=representation' },
    })
    expect(bioOnly.status).toBe(200)
    expect(bioOnly.json).toMatchObject([{ username: 'x y', bio: 'still me' }])
  })
})

describe('a rename follows the name everywhere it was copied', () => {
  it('published songs, comments and proposals show the new name', async () => {
    const maker = await signUp(server, 'renamer@example.com', 'renamer-pass', 'old_name')
    await sql(
      server,
      'insert into public.songs (id, title, artist, duration_seconds, slug, owner_id) ' +
        "values ('pub-rename', 'Tune', 'old_name', 60, 'tune-rename', $1)",
      [maker.id],
    )
    await sql(server, "insert into public.comments (song_id, user_id, username, body) values ('pub-rename', $1, 'old_name', 'hi')", [
      maker.id,
    ])
    await sql(
      server,
      'insert into public.proposals (author_id, author_name, title, description, category, ends_at) ' +
        "values ($1, 'old_name', 'T', 'D', 'other', now() + interval '2 days')",
      [maker.id],
    )
    const db = supabaseClient(server)
    await db.auth.signInWithPassword({ email: maker.email, password: maker.password })
    await saveProfileFields(db, maker.id, { username: 'new_name', bio: '' })
    expect(await sql(server, "select artist from public.songs where id = 'pub-rename'")).toEqual([{ artist: 'new_name' }])
    expect(await sql(server, 'select username from public.comments where user_id = $1', [maker.id])).toEqual([{ username: 'new_name' }])
    expect(await sql(server, 'select author_name from public.proposals where author_id = $1', [maker.id])).toEqual([
      { author_name: 'new_name' },
    ])
    // Others' rows are untouched.
    expect(await sql(server, "select count(*)::int as n from public.songs where artist = 'new_name'")).toEqual([{ n: 1 }])
  })
})

describe('one username rule at sign-up and rename', () => {
  const NAMES = [
    'dj.nova',
    'Fresh_Runner-8',
    'أحمد_7',
    'Ахмед',
    '李小龍',
    'さくら',
    '김민준',
    'José',
    'Ελένη',
    'देवनागरी',
    'ab',
    'x'.repeat(31),
    'x'.repeat(5000),
    'has space',
    'emoji🎵',
    '<script>',
    'a@b.c',
  ]
  const signUpRaw = (email: string, username: string, password = 'long-enough-pass') =>
    api(server, '/auth/v1/signup', { body: { email, password, data: { username } } })

  it('the server and the client give the same verdict and the same words for every name', async () => {
    const anon = supabaseClient(server)
    for (const name of NAMES) {
      const { data, error } = await anon.rpc('username_problem', { p_name: name })
      expect(error, name).toBeNull()
      expect(data, name).toBe(usernameProblem(name))
    }
    expect((await anon.rpc('username_problem', { p_name: 'settings_other' })).data).toBe(USERNAME_TAKEN_MESSAGE)
  })

  it('sign-up refuses a name against the rule (nothing created) and keeps a valid one of any alphabet whole', async () => {
    for (const [n, bad] of ['x'.repeat(5000), 'emoji🎵', 'has space', 'ab'].entries()) {
      const refused = await signUpRaw(`refused-${n}@example.com`, bad)
      expect(refused.status, bad).toBe(500)
      expect(refused.json).toMatchObject({ code: 'unexpected_failure', msg: 'Database error saving new user' })
      expect(await sql(server, 'select 1 from auth.users where email = $1', [`refused-${n}@example.com`])).toEqual([])
    }
    const arabic = await signUp(server, 'arabic@example.com', 'arabic-pass', 'أحمد_7')
    // A decomposed é (e + U+0301) is stored composed, so both spellings are one name.
    const jose = await signUp(server, 'jose@example.com', 'jose-pass-1', 'Jose\u0301')
    expect(
      await sql(server, 'select username from public.profiles where user_id = any($1) order by username', [[arabic.id, jose.id]]),
    ).toEqual([{ username: 'José' }, { username: 'أحمد_7' }])
    // The user the old rules trapped: signed up with a non-Latin name, then could not save a bio.
    const db = supabaseClient(server)
    await db.auth.signInWithPassword({ email: arabic.email, password: arabic.password })
    await saveProfileFields(db, arabic.id, { username: 'أحمد_7', bio: 'موسيقى' })
    await saveProfileFields(db, arabic.id, { username: '李小龍', bio: 'موسيقى' })
    await expect(saveProfileFields(db, arabic.id, { username: 'emoji🎵', bio: '' })).rejects.toThrow('"🎵" is not allowed.')
    expect((await db.rpc('username_problem', { p_name: 'Jose\u0301' })).data).toBe(USERNAME_TAKEN_MESSAGE)
  })

  it('one name per look: case, fullwidth forms and look-alike letters are the same name at sign-up and rename', async () => {
    const first = await signUp(server, 'neon-tourist@example.com', 'tourist-pass', 'neon_tourist')
    const anon = supabaseClient(server)
    const looksTaken = 'That username is taken: it reads the same as "neon_tourist"'
    // Capitals, fullwidth letters (NFKC), a Cyrillic е and о, a zero for o: all the same name.
    for (const twin of ['NEON_TOURIST', 'Neon_Tourist', 'ｎｅｏｎ_tourist', 'n\u0435on_t\u043Eurist', 'ne0n_tourist']) {
      const words = (await anon.rpc('username_problem', { p_name: twin })).data as string
      // Fullwidth letters are stored as what they read as (NFKC): the very same name.
      expect(words, twin).toBe(
        twin.startsWith('ｎ')
          ? USERNAME_TAKEN_MESSAGE
          : `${looksTaken} (names that differ only in capitals or in letters that look alike are one name). Try another one.`,
      )
      const refused = await signUpRaw(`twin-${[...twin].length}-${twin.codePointAt(1)}@example.com`, twin)
      expect(refused.status, twin).toBe(500)
    }
    expect(
      await sql(
        server,
        'select count(*)::int as n from public.profiles ' +
          "where public.username_skeleton(username) = public.username_skeleton('neon_tourist')",
      ),
    ).toEqual([{ n: 1 }])
    // Leading and trailing spaces are not part of the name: the same account may recapitalise its own.
    expect((await anon.rpc('username_problem', { p_name: '  fresh_name  ' })).data).toBeNull()
    const db = await clientOf(first)
    await saveProfileFields(db, first.id, { username: '  Neon_Tourist ', bio: '' })
    expect(await sql(server, 'select username from public.profiles where user_id = $1', [first.id])).toEqual([{ username: 'Neon_Tourist' }])
    // Another account's rename to a twin is refused by the server itself (raw PATCH), in words.
    const raw = await api(server, `/rest/v1/profiles?user_id=eq.${other.id}`, {
      method: 'PATCH',
      token: other.accessToken,
      body: { username: 'NEON_TOURIST' },
      headers: { Prefer: 'return=representation' },
    })
    expect(raw.status).toBe(409)
    expect(raw.json).toMatchObject({ message: 'username_taken', details: expect.stringContaining('"Neon_Tourist"') })
    await expect(saveProfileFields(otherDb, other.id, { username: 'neon_touri\u0455t', bio: '' })).rejects.toThrow(
      'reads the same as "Neon_Tourist"',
    )
    // Ten sign-ups racing for spellings of one new name: exactly one gets it.
    const race = await Promise.all(
      [
        'race_name',
        'RACE_NAME',
        'Race_Name',
        'race_nаme',
        'rаce_name',
        'RACE_name',
        'race_NAME',
        'rAce_name',
        'raCe_name',
        'racE_name',
      ].map((name, i) => signUpRaw(`race-${i}@example.com`, name)),
    )
    expect(race.filter((r) => r.status === 200)).toHaveLength(1)
    expect(
      await sql(server, "select count(*)::int as n from public.profiles where public.username_skeleton(username) = 'race_name'"),
    ).toEqual([{ n: 1 }])
  })

  it('existing look-alike names (from before the rule): the oldest keeps its name, each later one gets a number', async () => {
    const a = await signUp(server, 'dup-a@example.com', 'dup-pass-1', 'dup_owner')
    const b = await signUp(server, 'dup-b@example.com', 'dup-pass-2', 'dup_second')
    const c = await signUp(server, 'dup-c@example.com', 'dup-pass-3', 'dup_third')
    // As the database held them before: the index and triggers did not exist.
    await sql(
      server,
      `do $$ begin
         drop index public.profiles_username_skeleton_key;
         set local session_replication_role = replica;
         update public.profiles set username = 'DUP_OWNER', created_at = now() + interval '1 minute' where user_id = '${b.id}';
         update public.profiles set username = 'dup_оwner', created_at = now() + interval '2 minutes' where user_id = '${c.id}';
       end $$`,
    )
    await sql(server, "update public.profiles set created_at = now() - interval '1 day' where user_id = $1", [a.id])
    // The migration's step, run again on these rows.
    const migration = (await import('node:fs')).readFileSync('supabase/migrations/20261201100000_sybil_resistance.sql', 'utf8')
    const start = migration.indexOf('do $$')
    const step = migration.slice(start, migration.indexOf('\n$$;', start) + 4)
    await sql(server, step)
    await sql(server, 'create unique index profiles_username_skeleton_key on public.profiles (public.username_skeleton(username))')
    expect(
      await sql(server, 'select user_id, username from public.profiles where user_id = any($1) order by created_at', [[a.id, b.id, c.id]]),
    ).toEqual([
      { user_id: a.id, username: 'dup_owner' },
      { user_id: b.id, username: 'DUP_OWNER-2' },
      { user_id: c.id, username: 'dup_оwner-3' },
    ])
  })

  it('one password minimum: 8 characters at sign-up as in Settings', async () => {
    const short = await api(server, '/auth/v1/signup', { body: { email: 'seven@example.com', password: '7-chars' } })
    expect(short.status).toBe(422)
    expect(short.json).toMatchObject({ error_code: 'weak_password', msg: `Password should be at least ${PASSWORD_MIN} characters.` })
    expect((await api(server, '/auth/v1/signup', { body: { email: 'eight@example.com', password: '8-chars!' } })).status).toBe(200)
  })
})

describe('avatars', () => {
  const png = (bytes: number) => new Blob([withSignature('image/png', new Uint8Array(bytes))], { type: 'image/png' })

  it("upload goes to <user>/avatar and the profile points at it; anyone may fetch a public profile's avatar through the API", async () => {
    const url = await uploadAvatar(ownerDb, owner.id, png(1024))
    // Not a public bucket any more (a private profile's avatar must not be served by URL): the address names the object.
    expect(url).toContain(`/storage/v1/object/authenticated/${AVATAR_BUCKET}/${avatarPath(owner.id)}?v=`)
    expect(await sql(server, 'select avatar_url from public.profiles where user_id = $1', [owner.id])).toEqual([{ avatar_url: url }])
    const fetched = await supabaseClient(server).storage.from(AVATAR_BUCKET).download(avatarPath(owner.id))
    expect(fetched.data?.size).toBe(1024)
  })

  it('an oversized or non-image file is refused by the client module and by Storage; nobody writes another user’s avatar', async () => {
    await expect(uploadAvatar(ownerDb, owner.id, png(AVATAR_MAX_BYTES + 1))).rejects.toThrow('at most 2 MB')
    await expect(uploadAvatar(ownerDb, owner.id, new Blob(['hello'], { type: 'text/plain' }))).rejects.toThrow('PNG, JPEG or WebP')
    const bucket = ownerDb.storage.from(AVATAR_BUCKET)
    expect(
      (await bucket.upload(avatarPath(owner.id), png(AVATAR_MAX_BYTES + 1), { contentType: 'image/png', upsert: true })).error,
    ).not.toBeNull()
    expect(
      (
        await bucket.upload(avatarPath(owner.id), new Blob(['<svg/>'], { type: 'image/svg+xml' }), {
          contentType: 'image/svg+xml',
          upsert: true,
        })
      ).error,
    ).not.toBeNull()
    const foreign = await otherDb.storage
      .from(AVATAR_BUCKET)
      .upload(avatarPath(owner.id), png(10), { contentType: 'image/png', upsert: true })
    expect(foreign.error).not.toBeNull()
  })
})

describe('preferences', () => {
  it('read defaults before the first save, then saved and read back per user', async () => {
    const fresh = await signUp(server, 'prefs@example.com', 'prefs-pass', 'prefs')
    const db = await clientOf(fresh)
    expect(await fetchUserSettings(db, fresh.id)).toEqual(DEFAULT_SETTINGS)
    await saveUserSettings(db, fresh.id, { ...DEFAULT_SETTINGS, notify_votes: false, public_profile: false })
    await saveUserSettings(db, fresh.id, { ...DEFAULT_SETTINGS, notify_votes: false, public_profile: false, show_activity: false })
    expect(await fetchUserSettings(db, fresh.id)).toEqual({
      ...DEFAULT_SETTINGS,
      notify_votes: false,
      public_profile: false,
      show_activity: false,
    })
    // Another user sees nothing of it and cannot write it.
    expect(await fetchUserSettings(otherDb, fresh.id)).toEqual(DEFAULT_SETTINGS)
    await expect(saveUserSettings(otherDb, fresh.id, DEFAULT_SETTINGS)).rejects.toThrow('could not be saved')
  })
})
