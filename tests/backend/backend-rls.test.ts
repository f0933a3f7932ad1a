import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { ownedCrud, readOnlyOwn, rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'

// Every table of the core schema × {anon, owner, another user} × {select, insert, update, delete}
// (support/rls-matrix.ts says what each outcome means).

const PLAYLIST = '11111111-1111-4111-8111-111111111111'
const NEW_PLAYLIST = '22222222-2222-4222-8222-222222222222'
const STUDIO_PROJECT = '33333333-3333-4333-8333-333333333333'
const NEW_STUDIO_PROJECT = '44444444-4444-4444-8444-444444444444'
const CREATION = {
  kind: 'recording',
  title: 'New take',
  artist: 'Recorded by you',
  image: '/images/covers/mic-take.svg',
  content_type: 'audio/webm',
  byte_size: 10,
  part_count: 1,
}

let server: TestServer
let owner: TestUser
let other: TestUser
/** The user the owner's fixture follow points at. */
let third: TestUser
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)
const exists = async (text: string, params: unknown[]) => (await q(text, params)).length > 0
const ctx = () => rlsContext(server, owner, other)

const CASES: Record<string, RlsCase> = {
  profiles: {
    target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
    insert: ({ owner: { id: o } }) => ({ user_id: o, username: 'impostor' }),
    update: { bio: 'changed' },
    inserted: () => exists("select 1 from public.profiles where username = 'impostor'", []),
    untouched: ({ owner: { id: o } }) => exists("select 1 from public.profiles where user_id = $1 and bio = 'original'", [o]),
    reset: () => q("update public.profiles set bio = 'original' where user_id = $1", [owner.id]),
    expect: {
      anon: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'denied', update: 'allowed', delete: 'denied' },
      other: { select: 'rows', insert: 'denied', update: 'none', delete: 'denied' },
    },
  },
  songs: {
    target: () => 'id=eq.neon-drift',
    insert: () => ({ id: 'free-money', title: 'x', artist: 'x', duration_seconds: 2, reward: 1000 }),
    update: { reward: 1000 },
    inserted: () => exists("select 1 from public.songs where id = 'free-money'", []),
    untouched: () => exists("select 1 from public.songs where id = 'neon-drift' and reward = 2", []),
    reset: () =>
      q("delete from public.songs where id = 'free-money'").then(() => q("update public.songs set reward = 2 where id = 'neon-drift'")),
    expect: {
      anon: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
      other: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
    },
  },
  user_tokens: {
    target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
    insert: ({ owner: { id: o } }) => ({ user_id: o, balance: 1000000 }),
    update: { balance: 1000000 },
    inserted: () => exists('select 1 from public.user_tokens where balance = 1000000', []),
    untouched: ({ owner: { id: o } }) => exists('select 1 from public.user_tokens where user_id = $1 and balance = 100', [o]),
    reset: async () => undefined,
    expect: readOnlyOwn,
  },
  token_ledger: {
    target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
    insert: ({ owner: { id: o } }) => ({ user_id: o, amount: 1000000, reason: 'claim', idempotency_key: 'forged' }),
    update: { amount: 1000000 },
    inserted: () => exists("select 1 from public.token_ledger where idempotency_key = 'forged'", []),
    untouched: ({ owner: { id: o } }) =>
      exists("select 1 from public.token_ledger where user_id = $1 and reason = 'welcome' and amount = 100", [o]),
    reset: async () => undefined,
    expect: readOnlyOwn,
  },
  user_listening_history: {
    target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
    insert: ({ owner: { id: o } }) => ({ user_id: o, song_id: 'forged', seconds: 999 }),
    update: { seconds: 999 },
    inserted: () => exists("select 1 from public.user_listening_history where song_id = 'forged'", []),
    untouched: ({ owner: { id: o } }) =>
      exists("select 1 from public.user_listening_history where user_id = $1 and song_id = 'neon-drift' and seconds = 40", [o]),
    reset: async () => undefined,
    expect: readOnlyOwn,
  },
  playlists: {
    target: () => `id=eq.${PLAYLIST}`,
    insert: ({ owner: { id: o } }) => ({ id: NEW_PLAYLIST, user_id: o, name: 'New' }),
    update: { name: 'Renamed' },
    inserted: () => exists('select 1 from public.playlists where id = $1', [NEW_PLAYLIST]),
    untouched: () => exists("select 1 from public.playlists where id = $1 and name = 'Original'", [PLAYLIST]),
    reset: async () => {
      await q('delete from public.playlists where id = $1', [NEW_PLAYLIST])
      await q(
        "insert into public.playlists (id, user_id, name) values ($1, $2, 'Original') on conflict (id) do update set name " +
          "= 'Original', user_id = excluded.user_id",
        [PLAYLIST, owner.id],
      )
    },
    expect: ownedCrud,
  },
  playlist_songs: {
    target: () => `playlist_id=eq.${PLAYLIST}&song_id=eq.neon-drift`,
    insert: () => ({ playlist_id: PLAYLIST, song_id: 'orbital-haze', position: 1 }),
    update: { position: 7 },
    inserted: () => exists("select 1 from public.playlist_songs where playlist_id = $1 and song_id = 'orbital-haze'", [PLAYLIST]),
    untouched: () =>
      exists("select 1 from public.playlist_songs where playlist_id = $1 and song_id = 'neon-drift' and position = 0", [PLAYLIST]),
    reset: async () => {
      await CASES.playlists!.reset(ctx())
      await q("delete from public.playlist_songs where playlist_id = $1 and song_id <> 'neon-drift'", [PLAYLIST])
      await q(
        "insert into public.playlist_songs (playlist_id, song_id, position) values ($1, 'neon-drift', 0) on conflict " +
          '(playlist_id, song_id) do update set position = 0',
        [PLAYLIST],
      )
    },
    expect: ownedCrud,
  },
  favourites: {
    target: ({ owner: { id: o } }) => `user_id=eq.${o}&song_id=eq.neon-drift`,
    insert: ({ owner: { id: o } }) => ({ user_id: o, song_id: 'orbital-haze' }),
    update: { created_at: '2001-01-01T00:00:00Z' },
    inserted: ({ owner: { id: o } }) => exists("select 1 from public.favourites where user_id = $1 and song_id = 'orbital-haze'", [o]),
    untouched: ({ owner: { id: o } }) =>
      exists("select 1 from public.favourites where user_id = $1 and song_id = 'neon-drift' and created_at > '2002-01-01'", [o]),
    reset: async () => {
      await q("delete from public.favourites where user_id = $1 and song_id <> 'neon-drift'", [owner.id])
      await q(
        "insert into public.favourites (user_id, song_id) values ($1, 'neon-drift') on conflict (user_id, song_id) do " +
          'update set created_at = now()',
        [owner.id],
      )
    },
    expect: ownedCrud,
  },
  studio_projects: {
    target: () => `id=eq.${STUDIO_PROJECT}`,
    insert: ({ owner: { id: o } }) => ({ id: NEW_STUDIO_PROJECT, user_id: o, name: 'New', track_count: 1, duration_seconds: 2.5 }),
    update: { name: 'Renamed' },
    inserted: () => exists('select 1 from public.studio_projects where id = $1', [NEW_STUDIO_PROJECT]),
    untouched: () =>
      exists("select 1 from public.studio_projects where id = $1 and name = 'Original' and track_count = 2", [STUDIO_PROJECT]),
    reset: async () => {
      await q('delete from public.studio_projects where id = $1', [NEW_STUDIO_PROJECT])
      await q(
        'insert into public.studio_projects (id, user_id, name, track_count, duration_seconds) values ($1, $2, ' +
          "'Original', 2, 12.5) on conflict (id) do update set name = 'Original', track_count = 2, user_id = " +
          'excluded.user_id',
        [STUDIO_PROJECT, owner.id],
      )
    },
    expect: ownedCrud,
  },
  creations: {
    target: () => 'id=eq.take-original',
    insert: ({ owner: { id: o } }) => ({ ...CREATION, user_id: o, id: 'take-new' }),
    update: { title: 'Renamed' },
    inserted: () => exists("select 1 from public.creations where id = 'take-new'", []),
    untouched: () => exists("select 1 from public.creations where id = 'take-original' and title = 'Original'", []),
    reset: async () => {
      await q("delete from public.creations where id <> 'take-original'")
      await q(
        'insert into public.creations (user_id, id, kind, title, artist, image, content_type, byte_size, part_count) values ' +
          "($1, 'take-original', 'recording', 'Original', 'Recorded by you', '/images/covers/mic-take.svg', 'audio/webm', 10, 1) " +
          "on conflict (user_id, id) do update set title = 'Original'",
        [owner.id],
      )
    },
    expect: ownedCrud,
  },
  storage_quotas: {
    target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
    insert: ({ other: { id: o } }) => ({ user_id: o, limit_bytes: 1e15 }),
    update: { limit_bytes: 1e15 },
    inserted: ({ other: { id: o } }) => exists('select 1 from public.storage_quotas where user_id = $1', [o]),
    untouched: ({ owner: { id: o } }) => exists('select 1 from public.storage_quotas where user_id = $1 and limit_bytes = 1000', [o]),
    reset: async () => {
      await q('delete from public.storage_quotas where user_id <> $1', [owner.id])
      await q(
        'insert into public.storage_quotas (user_id, limit_bytes) values ($1, 1000) on conflict (user_id) do update set limit_bytes = 1000',
        [owner.id],
      )
    },
    expect: readOnlyOwn,
  },
  ledger_reasons: {
    target: () => 'reason=eq.remix',
    insert: () => ({ reason: 'free_money', kind: 'earn', description: 'x' }),
    update: { kind: 'earn' },
    inserted: () => exists("select 1 from public.ledger_reasons where reason = 'free_money'", []),
    untouched: () => exists("select 1 from public.ledger_reasons where reason = 'remix' and kind = 'spend'", []),
    reset: async () => {
      await q("delete from public.ledger_reasons where reason = 'free_money'")
      await q("update public.ledger_reasons set kind = 'spend' where reason = 'remix'")
    },
    expect: {
      anon: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
      other: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
    },
  },
  follows: {
    target: ({ owner: { id: o } }) => `follower_id=eq.${o}`,
    insert: ({ owner: { id: o }, other: { id: t } }) => ({ follower_id: o, following_id: t }),
    update: { created_at: '2001-01-01T00:00:00Z' },
    inserted: () => exists('select 1 from public.follows where follower_id = $1 and following_id = $2', [owner.id, other.id]),
    untouched: () =>
      exists("select 1 from public.follows where follower_id = $1 and following_id = $2 and created_at > '2002-01-01'", [
        owner.id,
        third.id,
      ]),
    reset: async () => {
      await q('delete from public.follows where following_id = $1', [other.id])
      await q('insert into public.follows (follower_id, following_id) values ($1, $2) on conflict do nothing', [owner.id, third.id])
      await q('update public.follows set created_at = now() where follower_id = $1', [owner.id])
    },
    expect: {
      anon: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'allowed', update: 'denied', delete: 'allowed' },
      other: { select: 'rows', insert: 'denied', update: 'denied', delete: 'none' },
    },
  },
  administrators: {
    target: ({ owner: { id: o } }) => `user_id=eq.${o}`,
    insert: ({ owner: { id: o } }) => ({ user_id: o }),
    update: { created_at: '2001-01-01T00:00:00Z' },
    inserted: () => exists('select 1 from public.administrators where user_id = $1', [other.id]),
    untouched: ({ owner: { id: o } }) =>
      exists("select 1 from public.administrators where user_id = $1 and created_at > '2002-01-01'", [o]),
    reset: async () => {
      await q('delete from public.administrators where user_id = $1', [other.id])
      await q('insert into public.administrators (user_id) values ($1) on conflict (user_id) do update set created_at = now()', [owner.id])
    },
    expect: readOnlyOwn,
  },
}

beforeAll(async () => {
  server = await startTestServer({ adminEmails: ['owner@example.com'] })
  owner = await signUp(server, 'owner@example.com', 'owner-pass', 'owner')
  other = await signUp(server, 'other@example.com', 'other-pass', 'other')
  third = await signUp(server, 'third@example.com', 'third-pass', 'third')
  await rpc(server, owner.accessToken, 'init_user_tokens')
  await rpc(server, other.accessToken, 'init_user_tokens')
  await q("insert into public.user_listening_history (user_id, song_id, seconds) values ($1, 'neon-drift', 40)", [owner.id])
}, 60_000)
afterAll(() => server?.close())

describe('RLS matrix through the HTTP API', () => {
  it('LOCAL_ADMIN_EMAILS made the owner an administrator, and is_admin() says so only for them', async () => {
    expect(await q('select user_id from public.administrators')).toEqual([{ user_id: owner.id }])
    expect((await rpc(server, owner.accessToken, 'is_admin')).json).toBe(true)
    expect((await rpc(server, other.accessToken, 'is_admin')).json).toBe(false)
    expect((await api(server, '/rest/v1/rpc/is_admin', { method: 'POST' })).status).toBe(401)
  })

  rlsMatrixTests(CASES, ctx)
})
