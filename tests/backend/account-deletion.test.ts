import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteMyAccount } from '../../src/backend/account-settings.ts'
import { rpc, signUp, sql, startTestServer, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'
import { withSignature } from './support/media-bytes.ts'

// Delete my account: personal data, files and published songs go; the ledger stays, anonymised,
// and every remaining wallet still equals its ledger sum.

let server: TestServer
let leaving: TestUser
let staying: TestUser
let db: SupabaseClient

beforeAll(async () => {
  server = await startTestServer({ adminEmails: ['last-admin@example.com'] })
  leaving = await signUp(server, 'leaving@example.com', 'leaving-pass-1', 'leaving_user')
  staying = await signUp(server, 'staying@example.com', 'staying-pass-1', 'staying_user')
  for (const u of [leaving, staying]) await rpc(server, u.accessToken, 'init_user_tokens')
  db = supabaseClient(server)
  await db.auth.signInWithPassword({ email: leaving.email, password: leaving.password })
}, 60_000)
afterAll(() => server?.close())

const ledgerMatchesWallets = async () =>
  sql<{ user_id: string; balance: number; ledger: string }>(
    server,
    `
    select t.user_id, t.balance, coalesce((select sum(amount) from public.token_ledger l where l.user_id = t.user_id), 0)::text as ledger
      from public.user_tokens t`,
  )

describe('delete my account', () => {
  it('removes the person, keeps the history anonymised, and refuses until confirmed and files are gone', async () => {
    // The leaving user's footprint.
    const top = await rpc(server, leaving.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'first!' })
    const topId = top.json.comment?.id ?? top.json.id
    await rpc(server, leaving.accessToken, 'post_comment', { p_song_id: 'orbital-haze', p_body: 'lonely comment' })
    await rpc(server, staying.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'reply to a leaver', p_parent_id: topId })
    const theirs = await rpc(server, staying.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'staying comment' })
    const theirsId = theirs.json.comment?.id ?? theirs.json.id
    await rpc(server, leaving.accessToken, 'set_comment_like', { p_comment_id: theirsId, p_liked: true })
    await sql(
      server,
      "insert into public.songs (id, title, artist, duration_seconds, owner_id) values ('leaver-song', 'Leaver Song', " +
        "'leaving_user', 90, $1)",
      [leaving.id],
    )
    await sql(server, 'insert into public.follows (follower_id, following_id) values ($1, $2)', [staying.id, leaving.id])
    await sql(server, "insert into public.wallet_welcomes (user_id, address) values ($1, '0x00000000000000000000000000000000000000AA')", [
      leaving.id,
    ])
    expect(
      (
        await db.storage
          .from('avatars')
          .upload(`${leaving.id}/avatar`, new Blob([withSignature('image/png', new Uint8Array(64))], { type: 'image/png' }), {
            contentType: 'image/png',
          })
      ).error,
    ).toBeNull()
    const ledgerRows = (
      await sql<{ n: string }>(server, 'select count(*)::text as n from public.token_ledger where user_id = $1', [leaving.id])
    )[0]!.n

    await expect(deleteMyAccount(db, leaving.id, 'Leaving_User')).rejects.toThrow('Type your username exactly to confirm.')
    // The server's own guard: files still stored are refused (the client module removes them first).
    const early = await rpc(server, leaving.accessToken, 'delete_my_account', { p_confirm_username: 'leaving_user' })
    expect(early.json).toMatchObject({ message: 'storage_not_empty' })

    await deleteMyAccount(db, leaving.id, 'leaving_user')

    expect(await sql(server, 'select 1 from auth.users where id = $1', [leaving.id])).toEqual([])
    expect(await sql(server, 'select 1 from public.profiles where user_id = $1', [leaving.id])).toEqual([])
    expect(await sql(server, "select 1 from public.songs where id = 'leaver-song'")).toEqual([])
    expect(await sql(server, 'select 1 from public.follows where following_id = $1', [leaving.id])).toEqual([])
    expect(await sql(server, 'select 1 from storage.objects where name like $1', [`${leaving.id}/%`])).toEqual([])
    // The address keeps its welcome: a new account with the same wallet gets no second bonus.
    expect(
      await sql(server, "select user_id from public.wallet_welcomes where address = '0x00000000000000000000000000000000000000AA'"),
    ).toEqual([{ user_id: null }])
    // The ledger keeps its rows without the person; wallets still equal their ledgers.
    expect((await sql<{ n: string }>(server, 'select count(*)::text as n from public.token_ledger where user_id is null'))[0]!.n).toBe(
      ledgerRows,
    )
    for (const w of await ledgerMatchesWallets()) expect(String(w.balance), w.user_id).toBe(w.ledger)
    // The comment someone replied to stays as 'comment deleted', the reply with it; the other is gone; the like is undone.
    expect(await sql(server, 'select body, deleted, username, user_id from public.comments where id = $1', [topId])).toEqual([
      { body: '', deleted: true, username: 'deleted user', user_id: null },
    ])
    expect(await sql(server, 'select body from public.comments where parent_id = $1', [topId])).toEqual([{ body: 'reply to a leaver' }])
    expect(await sql(server, "select 1 from public.comments where body = 'lonely comment'")).toEqual([])
    expect(await sql(server, 'select like_count from public.comments where id = $1', [theirsId])).toEqual([{ like_count: 0 }])
  })

  it('the last administrator cannot delete their account', async () => {
    const admin = await signUp(server, 'last-admin@example.com', 'admin-pass-1', 'last_admin')
    const r = await rpc(server, admin.accessToken, 'delete_my_account', { p_confirm_username: 'last_admin' })
    expect(r.json).toMatchObject({ message: 'last_admin' })
    expect(await sql(server, 'select 1 from auth.users where id = $1', [admin.id])).toHaveLength(1)
  })
})
