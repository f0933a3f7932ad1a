import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../supabase/local/core/migrate.ts'
import { signUp, sql, startTestServer, supabaseClient, type TestServer } from './support/local-backend.ts'

// Playlist names are 1–80 characters on the server too (20261122230000_name_limits.sql),
// through supabase-js exactly as the app calls it.

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
}, 60_000)
afterAll(() => server?.close())

describe('playlist name limits through supabase-js', () => {
  it('refuses an 81-character name with a 400 check violation and accepts 80', async () => {
    await signUp(server, 'names@example.com', 'names-pass')
    const client = supabaseClient(server)
    expect((await client.auth.signInWithPassword({ email: 'names@example.com', password: 'names-pass' })).error).toBeNull()

    const tooLong = await client
      .from('playlists')
      .insert({ name: 'n'.repeat(81) })
      .select()
    expect(tooLong.status).toBe(400)
    expect(tooLong.error?.code).toBe('23514')

    const padded = await client
      .from('playlists')
      .insert({ name: ` ${'p'.repeat(80)} ` })
      .select()
    expect(padded.status).toBe(400)

    const blank = await client.from('playlists').insert({ name: '   ' }).select()
    expect(blank.status).toBe(400)

    const ok = await client
      .from('playlists')
      .insert({ name: 'm'.repeat(80) })
      .select('name')
    expect(ok.error).toBeNull()
    expect(ok.status).toBe(201)
    expect(ok.data).toEqual([{ name: 'm'.repeat(80) }])

    const [row] = await sql<{ id: string }>(server, 'select id from public.playlists where name = $1', ['m'.repeat(80)])
    const renamed = await client
      .from('playlists')
      .update({ name: 'r'.repeat(81) })
      .eq('id', row!.id)
      .select()
    expect(renamed.status).toBe(400)
    expect(renamed.error?.code).toBe('23514')
  })

  it('the migration applies over existing longer names: they are cut to 80 characters first', async () => {
    const user = await signUp(server, 'legacy-names@example.com', 'names-pass')
    // Back to the state before 20261122230000_name_limits.sql, with a 100-character name stored.
    await sql(server, 'alter table public.playlists drop constraint playlists_name_length')
    await sql(server, "delete from local_meta.migrations where name = '20261122230000_name_limits.sql'")
    await sql(server, 'insert into public.playlists (user_id, name) values ($1, $2)', [user.id, `  ${'L'.repeat(100)}`])
    expect(await migrate(server.db)).toEqual(['20261122230000_name_limits.sql'])
    const rows = await sql<{ name: string }>(server, 'select name from public.playlists where user_id = $1', [user.id])
    expect(rows).toEqual([{ name: 'L'.repeat(80) }])
    const constraints = await sql<{ conname: string }>(
      server,
      "select conname from pg_constraint where conrelid = 'public.playlists'::regclass and conname = 'playlists_name_length'",
    )
    expect(constraints).toHaveLength(1)
  })
})
