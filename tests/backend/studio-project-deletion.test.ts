import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SupabaseClient } from '@supabase/supabase-js'
import { listStudioProjects, upsertStudioProject } from '../../src/backend/studio-projects.ts'
import { fetchAccountStorage } from '../../src/backend/creations.ts'
import { deleteProjectFromAccount } from '../../src/features/studio/projects/studio-project-copies.ts'
import { makeWav, tone } from '../e2e/fixtures/audio.ts'
import { signUp, sql, startTestServer, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'

// Deleting a studio project from the account (the app's own deleteProjectFromAccount, through
// supabase-js as an ordinary signed-in user against the in-process local backend) deletes every
// object of its folder in the 'studio-audio' bucket, the files of an upload that never finished
// included, so the account's storage figure (account_storage, the Library's quota line) drops by
// exactly their bytes. Another project's copy, even of the same audio, is kept, and another user
// cannot delete anything of it.

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
}, 60_000)
afterAll(() => server?.close())

const BUCKET = 'studio-audio'
const KEEP = 'c0000000-0000-4000-8000-00000000000c'
const DROP = 'd0000000-0000-4000-8000-00000000000d'

async function signedIn(email: string): Promise<{ user: TestUser; db: SupabaseClient }> {
  const user = await signUp(server, email, 'studio-pass')
  const db = supabaseClient(server)
  const { error } = await db.auth.signInWithPassword({ email, password: 'studio-pass' })
  expect(error).toBeNull()
  return { user, db }
}

async function put(db: SupabaseClient, path: string, body: Uint8Array, contentType: string) {
  const { error } = await db.storage.from(BUCKET).upload(path, body, { contentType, upsert: true })
  expect(error).toBeNull()
}

async function files(db: SupabaseClient, folder: string): Promise<string[]> {
  const { data, error } = await db.storage.from(BUCKET).list(folder)
  expect(error).toBeNull()
  return data!.map((f) => f.name).sort()
}

/** A project's copy as the studio uploads it: each audio file, then the manifest naming them. */
async function uploadCopy(db: SupabaseClient, userId: string, projectId: string, audio: Record<string, Uint8Array>) {
  await upsertStudioProject(db, {
    id: projectId,
    name: projectId.slice(0, 4),
    trackCount: 1,
    durationSeconds: 1,
    createdAt: 1,
    updatedAt: 2,
  })
  for (const [id, wav] of Object.entries(audio)) await put(db, `${userId}/${projectId}/${id}.wav`, wav, 'audio/wav')
  const manifest = {
    format: 'cube-studio-project',
    version: 1,
    id: projectId,
    audio: Object.keys(audio).map((id) => ({ id, file: `${id}.wav` })),
  }
  await put(db, `${userId}/${projectId}/project.json`, new TextEncoder().encode(JSON.stringify(manifest)), 'application/json')
}

describe('deleting a studio project from the account', () => {
  it("deletes its audio objects, frees their bytes of the quota and keeps the audio another project's copy holds", async () => {
    const { user: alice, db } = await signedIn('alice-deletes@example.com')
    const { user: mallory, db: intruder } = await signedIn('mallory-deletes@example.com')
    const shared = new Uint8Array(makeWav([tone(330, 1, 48000)], 48000))
    const own = new Uint8Array(makeWav([tone(550, 2, 48000)], 48000))
    const unfinished = new Uint8Array(makeWav([tone(660, 0.5, 48000)], 48000))
    // Both projects use the audio 'a1' (the studio shares it between projects in this browser).
    await uploadCopy(db, alice.id, KEEP, { a1: shared })
    await uploadCopy(db, alice.id, DROP, { a1: shared, a2: own })
    // An upload of a later version cut off before its manifest: a file no manifest lists.
    await put(db, `${alice.id}/${DROP}/a3.wav`, unfinished, 'audio/wav')
    expect(await files(db, `${alice.id}/${DROP}`)).toEqual(['a1.wav', 'a2.wav', 'a3.wav', 'project.json'])

    const before = await fetchAccountStorage(db)
    const [{ bytes: dropBytes }] = (await sql<{ bytes: string }>(
      server,
      "select sum((metadata->>'size')::bigint)::text as bytes from storage.objects where bucket_id = $1 and name like $2",
      [BUCKET, `${alice.id}/${DROP}/%`],
    )) as [{ bytes: string }]
    // Three WAVs of 1 s, 2 s and 0.5 s at 48 kHz (16-bit: 2 bytes a frame) and the manifest.
    expect(Number(dropBytes)).toBeGreaterThan(3.5 * 48000 * 2)

    // Someone else asking to delete it removes nothing of Alice's.
    await deleteProjectFromAccount(intruder, alice.id, DROP)
    expect(await files(db, `${alice.id}/${DROP}`)).toHaveLength(4)
    expect((await listStudioProjects(db)).map((p) => p.id).sort()).toEqual([KEEP, DROP])
    expect(mallory.id).not.toBe(alice.id)

    await deleteProjectFromAccount(db, alice.id, DROP)
    expect(await files(db, `${alice.id}/${DROP}`)).toEqual([])
    const [{ left }] = (await sql<{ left: string }>(
      server,
      'select count(*)::text as left from storage.objects where bucket_id = $1 and name like $2',
      [BUCKET, `${alice.id}/${DROP}/%`],
    )) as [{ left: string }]
    expect(left).toBe('0')
    expect((await listStudioProjects(db)).map((p) => p.id)).toEqual([KEEP])
    const after = await fetchAccountStorage(db)
    expect(before.usedBytes - after.usedBytes).toBe(Number(dropBytes))

    // The other project's copy of the same audio is still there, byte for byte.
    expect(await files(db, `${alice.id}/${KEEP}`)).toEqual(['a1.wav', 'project.json'])
    const { data, error } = await db.storage.from(BUCKET).download(`${alice.id}/${KEEP}/a1.wav`)
    expect(error).toBeNull()
    expect(new Uint8Array(await data!.arrayBuffer())).toEqual(shared)

    // Deleting it again (a retry after a lost answer) is harmless.
    await deleteProjectFromAccount(db, alice.id, DROP)
    expect((await fetchAccountStorage(db)).usedBytes).toBe(after.usedBytes)
  })
})
