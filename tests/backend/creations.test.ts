import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  beginCreation,
  CREATION_PART_BYTES,
  CreationError,
  deleteCreation,
  downloadCreationAudio,
  fetchAccountStorage,
  finishCreation,
  listCreations,
  partName,
  uploadCreationParts,
  type CreationMeta,
} from '../../src/backend/creations.ts'
import { api, seededBytes as seeded, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'

// A creator's Library tracks kept in the account (supabase/schemas/creations.sql, src/backend/creations.ts),
// attacked as outsiders through supabase-js and raw HTTP: another account and a visitor can neither
// read, list nor delete the owner's rows or files, and the quota holds against direct uploads.

let server: TestServer
let alice: TestUser
let bob: TestUser
const clientFor = (user?: TestUser): SupabaseClient =>
  createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    ...(user ? { accessToken: async () => user.accessToken } : {}),
  })

beforeAll(async () => {
  server = await startTestServer()
  alice = await signUp(server, 'alice-creations@example.com')
  bob = await signUp(server, 'bob-creations@example.com')
}, 60_000)
afterAll(() => server?.close())

/** Seeded bytes as a BlobPart (backed by a plain ArrayBuffer). */
const seededBytes = (length: number, seed: number) => seeded(length, seed) as Uint8Array<ArrayBuffer>

const meta = (id: string, byteSize: number): CreationMeta => ({
  id,
  kind: 'recording',
  title: 'Morning take',
  artist: 'Recorded by you',
  image: '/images/covers/mic-take.svg',
  seconds: 3.5,
  contentType: 'audio/webm',
  byteSize,
})
const setQuota = (user: TestUser, bytes: number) =>
  sql(
    server,
    'insert into public.storage_quotas (user_id, limit_bytes) values ($1, $2) on conflict (user_id) do update set limit_bytes = $2',
    [user.id, bytes],
  )

describe('creations in the account', () => {
  it('a two-part track goes up, resumes without sending a part twice, comes back byte for byte, deletes with its files', async () => {
    const db = clientFor(alice)
    const audio = seededBytes(CREATION_PART_BYTES + 1000, 7)
    const blob = new Blob([audio], { type: 'audio/webm' })
    await beginCreation(db, meta('take-two-parts', blob.size))
    await beginCreation(db, meta('take-two-parts', blob.size))
    // Not complete yet: listed as unfinished, not counted as an item.
    expect((await listCreations(db)).map((r) => [r.id, r.uploadedAt])).toEqual([['take-two-parts', null]])
    const progress: number[] = []
    await uploadCreationParts(db, alice.id, 'take-two-parts', blob, (f) => progress.push(f))
    expect(progress.at(-1)).toBe(1)
    expect(progress.length).toBe(3)
    const firstVersion = await sql<{ version: string }>(server, 'select version from storage.objects where name like $1 order by name', [
      `${alice.id}/take-two-parts/%`,
    ])
    // Again (a resumed upload): both parts are there with their sizes, so nothing is sent.
    await uploadCreationParts(db, alice.id, 'take-two-parts', blob)
    expect(
      await sql(server, 'select version from storage.objects where name like $1 order by name', [`${alice.id}/take-two-parts/%`]),
    ).toEqual(firstVersion)
    await finishCreation(db, 'take-two-parts')
    const [row] = await listCreations(db)
    expect(row).toMatchObject({ id: 'take-two-parts', partCount: 2, byteSize: blob.size, kind: 'recording' })
    const back = await downloadCreationAudio(db, alice.id, row!)
    expect(back.type).toBe('audio/webm')
    // Compared as one buffer: a deep equality of 4 MB element by element takes a minute.
    expect(Buffer.compare(Buffer.from(await back.arrayBuffer()), Buffer.from(audio))).toBe(0)
    expect(await fetchAccountStorage(db)).toMatchObject({ usedBytes: blob.size, items: 1, limitBytes: 524288000 })

    // Bob, signed in, sees and removes nothing of it.
    const other = clientFor(bob)
    expect(await listCreations(other)).toEqual([])
    const { data: listed } = await other.storage.from('creations').list(`${alice.id}/take-two-parts`)
    expect(listed ?? []).toEqual([])
    const { error: readError } = await other.storage.from('creations').download(`${alice.id}/take-two-parts/${partName(0)}`)
    expect(readError).not.toBeNull()
    await other.storage.from('creations').remove([`${alice.id}/take-two-parts/${partName(0)}`])
    const { error: deleteRowError } = await other.from('creations').delete().eq('id', 'take-two-parts')
    expect(deleteRowError).toBeNull()
    const { error: forgeError } = await other.from('creations').insert({ ...rowOf(meta('take-forged', 10)), user_id: alice.id })
    expect(forgeError?.code).toBe('42501')
    const { error: plantError } = await other.storage
      .from('creations')
      .upload(`${alice.id}/take-planted/${partName(0)}`, new Blob([seededBytes(10, 1)]), { contentType: 'application/octet-stream' })
    expect(plantError).not.toBeNull()

    // A visitor: nothing at all, through supabase-js and raw HTTP.
    const visitor = clientFor()
    const { error: visitorList } = await visitor.from('creations').select('id')
    expect(visitorList).not.toBeNull()
    const raw = await api(server, `/storage/v1/object/creations/${alice.id}/take-two-parts/${partName(0)}`)
    expect(raw.status).not.toBe(200)
    const rawList = await api(server, '/storage/v1/object/list/creations', { body: { prefix: `${alice.id}/take-two-parts` } })
    expect(rawList.json ?? []).toEqual([])
    expect(await sql(server, "select count(*)::int as n from storage.objects where bucket_id = 'creations'")).toEqual([{ n: 2 }])
    expect(await sql(server, 'select count(*)::int as n from public.creations')).toEqual([{ n: 1 }])

    await deleteCreation(db, alice.id, 'take-two-parts')
    expect(await listCreations(db)).toEqual([])
    expect(await sql(server, "select count(*)::int as n from storage.objects where bucket_id = 'creations'")).toEqual([{ n: 0 }])
    expect(await fetchAccountStorage(db)).toMatchObject({ usedBytes: 0, items: 0 })
  })

  it('the quota refuses a new track in words, and direct uploads, overwrites and studio copies cannot get past it', async () => {
    await setQuota(bob, 3000)
    const db = clientFor(bob)
    await beginCreation(db, meta('take-fits', 2000))
    await uploadCreationParts(db, bob.id, 'take-fits', new Blob([seededBytes(2000, 3)]))
    await finishCreation(db, 'take-fits')
    expect(await fetchAccountStorage(db)).toMatchObject({ usedBytes: 2000, limitBytes: 3000, items: 1 })

    // The row of a track that cannot fit is refused before any byte is sent.
    const refused = await beginCreation(db, meta('take-too-big', 1500)).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(CreationError)
    expect((refused as CreationError).kind).toBe('quota')
    expect((refused as CreationError).message).toMatch(
      /Your account storage is full: 2000 bytes of 3000 bytes used, and this needs 1500 bytes more/,
    )

    // Skipping the row and uploading straight into the bucket: refused by the storage policy.
    const direct = await db.storage
      .from('creations')
      .upload(`${bob.id}/take-sneaky/${partName(0)}`, new Blob([seededBytes(1500, 4)]), { contentType: 'application/octet-stream' })
    expect(direct.error?.message).toMatch(/storage is full/)
    expect((direct.error as { statusCode?: string }).statusCode).toBe('413')
    // Growing an existing part past the limit by overwriting it: refused too (its old size does not count twice).
    const grow = await db.storage.from('creations').upload(`${bob.id}/take-fits/${partName(0)}`, new Blob([seededBytes(3001, 5)]), {
      contentType: 'application/octet-stream',
      upsert: true,
    })
    expect(grow.error?.message).toMatch(/storage is full/)
    // Studio project copies count against the same quota.
    const wav = new Uint8Array(1500)
    wav.set(
      [...'RIFF'].map((c) => c.charCodeAt(0)),
      0,
    )
    wav.set(
      [...'WAVE'].map((c) => c.charCodeAt(0)),
      8,
    )
    const studio = await db.storage
      .from('studio-audio')
      .upload(`${bob.id}/p/a.wav`, new Blob([wav], { type: 'audio/wav' }), { contentType: 'audio/wav' })
    expect(studio.error?.message).toMatch(/storage is full/)
    // What did fit is intact, and room that is freed can be used again.
    expect(
      await sql(server, "select (metadata->>'size')::int as size from storage.objects where bucket_id = 'creations' and name like $1", [
        `${bob.id}/%`,
      ]),
    ).toEqual([{ size: 2000 }])
    await deleteCreation(db, bob.id, 'take-fits')
    await beginCreation(db, meta('take-too-big', 1500))
    expect(await fetchAccountStorage(db)).toMatchObject({ usedBytes: 0, items: 0 })
  })
})

function rowOf(m: CreationMeta) {
  return {
    id: m.id,
    kind: m.kind,
    title: m.title,
    artist: m.artist,
    image: m.image,
    content_type: m.contentType,
    byte_size: m.byteSize,
    part_count: 1,
  }
}
