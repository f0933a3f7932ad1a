import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp, sql, startTestServer, supabaseClient, type TestServer } from './support/local-backend.ts'

// Playlist names are 1–80 characters on the server too (supabase/schemas/collection.sql),
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
})
