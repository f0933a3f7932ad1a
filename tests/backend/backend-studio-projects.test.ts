import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteStudioProject, listStudioProjects, renameStudioProject, upsertStudioProject } from '../../src/backend/studio-projects.ts'
import { signUp, sql, startTestServer, supabaseClient, type TestServer } from './support/local-backend.ts'

// The app's studio_projects calls (src/backend/studio-projects.ts) through supabase-js 2.109
// against the in-process local backend: what one user writes, only that user reads and changes.

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
}, 60_000)
afterAll(() => server?.close())

async function signedInClient(email: string) {
  await signUp(server, email, 'studio-pass')
  const client = supabaseClient(server)
  const { error } = await client.auth.signInWithPassword({ email, password: 'studio-pass' })
  expect(error).toBeNull()
  return client
}

const ID_A = 'a0000000-0000-4000-8000-00000000000a'
const ID_B = 'b0000000-0000-4000-8000-00000000000b'

describe('studio projects through supabase-js', () => {
  it('upsert, list, re-save, rename and delete; another user sees and changes nothing; visitors are refused', async () => {
    const alice = await signedInClient('alice-studio@example.com')
    const bob = await signedInClient('bob-studio@example.com')
    expect(await listStudioProjects(alice)).toEqual([])

    const created = await upsertStudioProject(alice, {
      id: ID_A,
      name: '  Night Drive  ',
      trackCount: 3,
      durationSeconds: 12.3456,
      createdAt: Date.UTC(2026, 0, 1),
      updatedAt: Date.UTC(2026, 0, 2),
    })
    expect(created).toMatchObject({ id: ID_A, name: 'Night Drive', trackCount: 3, durationSeconds: 12.346 })
    expect(Date.parse(created.createdAt)).toBe(Date.UTC(2026, 0, 1))
    await upsertStudioProject(alice, {
      id: ID_B,
      name: 'Second',
      trackCount: 1,
      durationSeconds: 2,
      createdAt: Date.UTC(2026, 0, 3),
      updatedAt: Date.UTC(2026, 0, 3),
    })
    expect((await listStudioProjects(alice)).map((p) => p.id)).toEqual([ID_B, ID_A])

    // Saving again updates the same row (the id is the local project's id).
    const resaved = await upsertStudioProject(alice, {
      id: ID_A,
      name: 'Night Drive',
      trackCount: 4,
      durationSeconds: 20,
      createdAt: Date.UTC(2026, 0, 1),
      updatedAt: Date.UTC(2026, 0, 4),
    })
    expect(resaved).toMatchObject({ trackCount: 4, durationSeconds: 20 })
    expect((await listStudioProjects(alice)).map((p) => [p.id, p.trackCount])).toEqual([
      [ID_A, 4],
      [ID_B, 1],
    ])
    const [row] = await sql<{ user_id: string; n: string }>(
      server,
      'select user_id, (select count(*) from public.studio_projects)::text as n from public.studio_projects where id = $1',
      [ID_A],
    )
    const [aliceUser] = await sql<{ id: string }>(server, "select id from auth.users where email = 'alice-studio@example.com'")
    expect(row).toEqual({ user_id: aliceUser!.id, n: '2' })

    // Bob sees none of it, and can neither take the id over by upsert nor rename or delete it.
    expect(await listStudioProjects(bob)).toEqual([])
    await expect(
      upsertStudioProject(bob, { id: ID_A, name: 'Stolen', trackCount: 0, durationSeconds: 0, createdAt: 0, updatedAt: 0 }),
    ).rejects.toMatchObject({ code: '42501' })
    await renameStudioProject(bob, ID_A, 'Stolen')
    await deleteStudioProject(bob, ID_A)
    expect((await listStudioProjects(alice)).find((p) => p.id === ID_A)?.name).toBe('Night Drive')

    // A visitor (anon key, no session) is refused outright.
    const visitor = supabaseClient(server)
    await expect(listStudioProjects(visitor)).rejects.toMatchObject({ code: '42501' })

    await renameStudioProject(alice, ID_A, 'Night Drive (final)')
    expect((await listStudioProjects(alice)).find((p) => p.id === ID_A)?.name).toBe('Night Drive (final)')
    await deleteStudioProject(alice, ID_A)
    expect((await listStudioProjects(alice)).map((p) => p.id)).toEqual([ID_B])
  })

  it('bad input gets a clear error before or from the server', async () => {
    const carol = await signedInClient('carol-studio@example.com')
    const base = { id: 'c0000000-0000-4000-8000-00000000000c', name: 'Ok', trackCount: 1, durationSeconds: 1, createdAt: 0, updatedAt: 0 }
    await expect(upsertStudioProject(carol, { ...base, name: '   ' })).rejects.toThrow('A project needs a name.')
    await expect(upsertStudioProject(carol, { ...base, trackCount: -1 })).rejects.toThrow('Invalid track count.')
    await expect(upsertStudioProject(carol, { ...base, durationSeconds: Number.NaN })).rejects.toThrow('Invalid duration.')
    await expect(upsertStudioProject(carol, { ...base, id: 'not-a-uuid' })).rejects.toMatchObject({ code: '22P02' })
    // Names longer than the column allows are cut to 120 characters, never refused.
    const long = await upsertStudioProject(carol, { ...base, name: 'x'.repeat(300) })
    expect(long.name).toHaveLength(120)
    // The table's own checks hold against a client that skips ours.
    const direct = await carol
      .from('studio_projects')
      .insert({ id: 'd0000000-0000-4000-8000-00000000000d', name: 'y'.repeat(121), track_count: 1, duration_seconds: 1 })
    expect(direct.error?.code).toBe('23514')
    const negative = await carol
      .from('studio_projects')
      .insert({ id: 'd0000000-0000-4000-8000-00000000000d', name: 'neg', track_count: -1, duration_seconds: 1 })
    expect(negative.error?.code).toBe('23514')
  })
})
