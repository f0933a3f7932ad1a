import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import { upsertStudioProject } from '../../src/backend/studio-projects.ts'
import { migratedSnapshot, seededBytes, signUp, sql, startTestServer, supabaseClient, type TestServer } from './support/local-backend.ts'
import { withSignature } from './support/media-bytes.ts'
import { startPostgresCluster, type PostgresCluster } from './support/postgres-cluster.ts'

// The Storage API of the local backend through supabase-js 2.109's storage client, as the app
// uses it for studio project copies: bucket `studio-audio`, objects `<user id>/<project id>/…`.

const BUCKET = 'studio-audio'
const PROJECT = 'a0000000-0000-4000-8000-0000000000a1'

let server: TestServer
let alice: { client: SupabaseClient; id: string; token: string }
let bob: { client: SupabaseClient; id: string; token: string }
let visitor: SupabaseClient

async function signedIn(email: string) {
  const user = await signUp(server, email, 'storage-pass')
  const client = supabaseClient(server)
  const { error } = await client.auth.signInWithPassword({ email, password: 'storage-pass' })
  expect(error).toBeNull()
  return { client, id: user.id, token: user.accessToken }
}

beforeAll(async () => {
  server = await startTestServer()
  alice = await signedIn('alice-storage@example.com')
  bob = await signedIn('bob-storage@example.com')
  visitor = supabaseClient(server)
}, 60_000)
afterAll(() => server?.close())

// Stand-ins for WAV files: Storage checks the signature of audio (support/media-bytes.ts).
const bytes = (length: number, seed: number) => withSignature('audio/wav', seededBytes(length, seed))
const buffer = (u: Uint8Array): ArrayBuffer => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex')

async function downloadBytes(client: SupabaseClient, path: string) {
  const { data, error } = await client.storage.from(BUCKET).download(path)
  return { bytes: data ? new Uint8Array(await data.arrayBuffer()) : null, type: data?.type, error }
}

async function objectRow(path: string) {
  const rows = await sql<{
    id: string
    owner: string
    owner_id: string
    version: string
    metadata: { size: number; mimetype: string; eTag: string }
  }>(
    server,
    'select id::text as id, owner::text as owner, owner_id, version, metadata from storage.objects where bucket_id = $1 and name = $2',
    [BUCKET, path],
  )
  return rows[0]
}
const bucketFiles = () => (existsSync(join(server.storageDir, BUCKET)) ? readdirSync(join(server.storageDir, BUCKET)).sort() : [])
const tempFiles = () => (existsSync(join(server.storageDir, '.tmp')) ? readdirSync(join(server.storageDir, '.tmp')) : [])

/** A request exactly as written: fetch would normalise `..` and backslashes before sending. */
function rawRequest(method: string, path: string, token: string, body?: Buffer, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${token}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Declares a large body, sends only its first bytes and waits for the answer: a refusal that
 * arrives now was decided without reading the body.
 */
function answerBeforeBody(path: string, token: string, headers: Record<string, string>) {
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Length': String(200 * 1024 * 1024), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          req.destroy()
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
        })
      },
    )
    req.on('error', reject)
    req.write(Buffer.alloc(1024))
  })
}

describe('Storage: studio-audio through supabase-js', () => {
  it(
    'uploads raw bytes, downloads them identically with their content type, refuses a second upload without upsert and ' +
      'overwrites with it',
    async () => {
      const path = `${alice.id}/${PROJECT}/clip-1.wav`
      const first = bytes(150_000, 1)
      const up = await alice.client.storage.from(BUCKET).upload(path, buffer(first), { contentType: 'audio/wav', upsert: true })
      expect(up.error).toBeNull()
      expect(up.data).toMatchObject({ path, fullPath: `${BUCKET}/${path}` })
      expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/)

      const down = await downloadBytes(alice.client, path)
      expect(down.error).toBeNull()
      expect(down.type).toBe('audio/wav')
      expect(md5(down.bytes!)).toBe(md5(first))

      // The row is the caller's, the bytes are a file on disk (not in the database).
      const row = await objectRow(path)
      expect(row).toMatchObject({
        id: up.data!.id,
        owner: alice.id,
        owner_id: alice.id,
        metadata: { size: first.length, mimetype: 'audio/wav', eTag: `"${md5(first)}"` },
      })
      expect(md5(readFileSync(join(server.storageDir, BUCKET, row!.version)))).toBe(md5(first))

      const again = await alice.client.storage.from(BUCKET).upload(path, buffer(bytes(10, 9)), { contentType: 'audio/wav' })
      expect(again.data).toBeNull()
      expect(again.error).toMatchObject({ name: 'StorageApiError', status: 400, statusCode: '409', message: 'The resource already exists' })
      expect(md5((await downloadBytes(alice.client, path)).bytes!)).toBe(md5(first))

      const second = bytes(90_000, 2)
      const over = await alice.client.storage.from(BUCKET).upload(path, buffer(second), { contentType: 'audio/wav', upsert: true })
      expect(over.error).toBeNull()
      expect(over.data!.id).toBe(up.data!.id)
      expect(md5((await downloadBytes(alice.client, path)).bytes!)).toBe(md5(second))
      // The replaced version's file is gone; only the new one is left for this object.
      const rewritten = await objectRow(path)
      expect(rewritten!.version).not.toBe(row!.version)
      expect(existsSync(join(server.storageDir, BUCKET, row!.version))).toBe(false)
      expect(existsSync(join(server.storageDir, BUCKET, rewritten!.version))).toBe(true)
    },
  )

  it('keeps project.json as application/json, accepts streamed (chunked) and multipart (Blob) bodies', async () => {
    const jsonPath = `${alice.id}/${PROJECT}/project.json`
    const json = JSON.stringify({ name: 'Night Drive', tracks: [{ id: 't1', clips: ['clip-1'] }] })
    const up = await alice.client.storage
      .from(BUCKET)
      .upload(jsonPath, buffer(new TextEncoder().encode(json)), { contentType: 'application/json', upsert: true, cacheControl: '0' })
    expect(up.error).toBeNull()
    const { data } = await alice.client.storage.from(BUCKET).download(jsonPath)
    expect(data!.type).toBe('application/json')
    expect(JSON.parse(await data!.text())).toEqual(JSON.parse(json))
    // The upload's cacheControl comes back on download (storage-js's default is max-age=3600, which
    // lets a browser serve an overwritten object from its cache: send 0 for files that get overwritten).
    const raw = await fetch(`${server.url}/storage/v1/object/${BUCKET}/${jsonPath}`, {
      headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${alice.token}` },
    })
    expect(raw.headers.get('cache-control')).toBe('max-age=0')
    expect(raw.headers.get('etag')).toBe(`"${md5(new TextEncoder().encode(json))}"`)
    expect(raw.headers.get('content-length')).toBe(String(new TextEncoder().encode(json).length))

    // No Content-Length: the limit is enforced while the body streams to disk.
    const streamed = bytes(300_000, 3)
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < streamed.length; i += 64_000) controller.enqueue(streamed.slice(i, i + 64_000))
        controller.close()
      },
    })
    const streamPath = `${alice.id}/${PROJECT}/clip-streamed.wav`
    expect(
      (await alice.client.storage.from(BUCKET).upload(streamPath, stream, { contentType: 'audio/wav', upsert: true })).error,
    ).toBeNull()
    expect(md5((await downloadBytes(alice.client, streamPath)).bytes!)).toBe(md5(streamed))

    // A Blob goes out as multipart/form-data; the part's type becomes the object's.
    const blobBytes = bytes(40_000, 4)
    const blobPath = `${alice.id}/${PROJECT}/clip-blob.wav`
    expect(
      (await alice.client.storage.from(BUCKET).upload(blobPath, new Blob([buffer(blobBytes)], { type: 'audio/wav' }), { upsert: true }))
        .error,
    ).toBeNull()
    const blobDown = await downloadBytes(alice.client, blobPath)
    expect(blobDown.type).toBe('audio/wav')
    expect(md5(blobDown.bytes!)).toBe(md5(blobBytes))
    const refusedBlob = await alice.client.storage
      .from(BUCKET)
      .upload(`${alice.id}/${PROJECT}/x.mp3`, new Blob([buffer(blobBytes)], { type: 'audio/mpeg' }))
    expect(refusedBlob.error).toMatchObject({ statusCode: '415', message: 'mime type audio/mpeg is not supported' })
    expect(tempFiles()).toEqual([])
  })

  it(
    'multipart (busboy): a large body with several files stores the first file part with its type, cacheControl and ' +
      'metadata; a broken body is refused',
    async () => {
      const path = `${alice.id}/${PROJECT}/clip-multipart.wav`
      const first = bytes(6 * 1024 * 1024 + 123, 21)
      const second = bytes(2 * 1024 * 1024, 22)
      const form = new FormData()
      form.append('cacheControl', '120')
      form.append('', new Blob([buffer(first)], { type: 'Audio/WAV' }), 'first.wav')
      form.append('extra', new Blob([buffer(second)], { type: 'audio/wav' }), 'second.wav')
      form.append('metadata', JSON.stringify({ take: 3 }))
      const auth = { apikey: server.keys.anonKey, Authorization: `Bearer ${alice.token}` }
      const up = await fetch(`${server.url}/storage/v1/object/${BUCKET}/${path}`, { method: 'POST', headers: auth, body: form })
      expect(up.status, await up.clone().text()).toBe(200)
      expect(await up.json()).toMatchObject({ Key: `${BUCKET}/${path}` })
      const down = await fetch(`${server.url}/storage/v1/object/${BUCKET}/${path}`, { headers: auth })
      expect(down.headers.get('content-type')).toBe('audio/wav')
      expect(down.headers.get('cache-control')).toBe('max-age=120')
      expect(md5(new Uint8Array(await down.arrayBuffer()))).toBe(md5(first))
      const [row] = await sql<{ user_metadata: unknown; size: number }>(
        server,
        "select user_metadata, (metadata->>'size')::int as size from storage.objects where bucket_id = $1 and name = $2",
        [BUCKET, path],
      )
      expect(row).toEqual({ user_metadata: { take: 3 }, size: first.length })

      const truncated = await fetch(`${server.url}/storage/v1/object/${BUCKET}/${alice.id}/${PROJECT}/broken.wav`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'multipart/form-data; boundary=XYZ' },
        body: '--XYZ\r\nContent-Disposition: form-data; name=""; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF....',
      })
      expect(truncated.status).toBe(400)
      expect(await truncated.json()).toMatchObject({
        statusCode: '400',
        code: 'InvalidRequest',
        message: expect.stringMatching(/^Malformed multipart\/form-data body/),
      })
      const noFile = await fetch(`${server.url}/storage/v1/object/${BUCKET}/${alice.id}/${PROJECT}/nofile.wav`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'multipart/form-data; boundary=XYZ' },
        body: '--XYZ\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n60\r\n--XYZ--\r\n',
      })
      expect(await noFile.json()).toMatchObject({ statusCode: '400', message: 'The multipart/form-data body holds no file part' })
      const noBoundary = await fetch(`${server.url}/storage/v1/object/${BUCKET}/${alice.id}/${PROJECT}/nob.wav`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'multipart/form-data' },
        body: 'x',
      })
      expect(await noBoundary.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' })
      expect(await objectRow(`${alice.id}/${PROJECT}/broken.wav`)).toBeUndefined()
      expect(tempFiles()).toEqual([])
    },
  )

  it('another user can neither read, overwrite nor remove the object; a visitor can neither upload nor download', async () => {
    const path = `${alice.id}/${PROJECT}/private.wav`
    const secret = bytes(5_000, 5)
    expect((await alice.client.storage.from(BUCKET).upload(path, buffer(secret), { contentType: 'audio/wav' })).error).toBeNull()

    // exists() is a HEAD request: true for the owner, false where RLS hides the row.
    expect(await alice.client.storage.from(BUCKET).exists(path)).toMatchObject({ data: true, error: null })
    expect((await bob.client.storage.from(BUCKET).exists(path)).data).toBe(false)

    const peek = await downloadBytes(bob.client, path)
    expect(peek.bytes).toBeNull()
    expect(peek.error).toMatchObject({ name: 'StorageApiError', status: 400, statusCode: '404', message: 'Object not found' })

    for (const upsert of [false, true]) {
      const takeover = await bob.client.storage.from(BUCKET).upload(path, buffer(bytes(10, 6)), { contentType: 'audio/wav', upsert })
      expect(takeover.error).toMatchObject({ status: 400, statusCode: '403', message: 'new row violates row-level security policy' })
    }
    const removed = await bob.client.storage.from(BUCKET).remove([path])
    expect(removed).toEqual({ data: [], error: null })
    expect(md5((await downloadBytes(alice.client, path)).bytes!)).toBe(md5(secret))
    expect((await objectRow(path))!.owner).toBe(alice.id)

    // Bob's own folder works for him, and Alice cannot see into it.
    const bobPath = `${bob.id}/${PROJECT}/clip.wav`
    expect((await bob.client.storage.from(BUCKET).upload(bobPath, buffer(bytes(100, 7)), { contentType: 'audio/wav' })).error).toBeNull()
    expect((await downloadBytes(alice.client, bobPath)).error).toMatchObject({ statusCode: '404' })

    expect((await downloadBytes(visitor, path)).error).toMatchObject({ statusCode: '404', message: 'Object not found' })
    const anonUpload = await visitor.storage
      .from(BUCKET)
      .upload(`${alice.id}/${PROJECT}/anon.wav`, buffer(bytes(10, 8)), { contentType: 'audio/wav' })
    expect(anonUpload.error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' })
    expect(await objectRow(`${alice.id}/${PROJECT}/anon.wav`)).toBeUndefined()

    // Refusals that need no body come before it: RLS, an existing object without upsert.
    const wav = { 'Content-Type': 'audio/wav' }
    const intruder = await answerBeforeBody(`/storage/v1/object/${BUCKET}/${path}`, bob.token, { ...wav, 'x-upsert': 'true' })
    expect(intruder).toMatchObject({ status: 400, json: { statusCode: '403' } })
    const duplicate = await answerBeforeBody(`/storage/v1/object/${BUCKET}/${path}`, alice.token, wav)
    expect(duplicate).toMatchObject({ status: 400, json: { statusCode: '409' } })
    expect(md5((await downloadBytes(alice.client, path)).bytes!)).toBe(md5(secret))
    expect(tempFiles()).toEqual([])
  })

  it('remove returns the removed objects; they are gone from the bucket and from disk', async () => {
    const paths = [`${alice.id}/${PROJECT}/gone-1.wav`, `${alice.id}/${PROJECT}/gone-2.wav`]
    for (const [i, p] of paths.entries())
      expect(
        (await alice.client.storage.from(BUCKET).upload(p, buffer(bytes(2_000, 20 + i)), { contentType: 'audio/wav' })).error,
      ).toBeNull()
    const versions = await Promise.all(paths.map(async (p) => (await objectRow(p))!.version))
    for (const v of versions) expect(existsSync(join(server.storageDir, BUCKET, v))).toBe(true)

    const { data, error } = await alice.client.storage.from(BUCKET).remove([...paths, `${alice.id}/${PROJECT}/never-there.wav`])
    expect(error).toBeNull()
    expect(data!.map((o) => o.name).sort()).toEqual(paths)
    expect(data![0]).toMatchObject({ bucket_id: BUCKET, owner: alice.id })
    for (const p of paths)
      expect((await downloadBytes(alice.client, p)).error).toMatchObject({ status: 400, statusCode: '404', message: 'Object not found' })
    for (const v of versions) expect(existsSync(join(server.storageDir, BUCKET, v))).toBe(false)
    expect((await alice.client.storage.from(BUCKET).remove(paths)).data).toEqual([])
  })

  it('refuses bodies over the bucket limit (413) and types the bucket does not allow (415), storing nothing', async () => {
    const before = bucketFiles()
    await sql(server, "update storage.buckets set file_size_limit = 1000 where id = 'studio-audio'")
    try {
      const path = `${alice.id}/${PROJECT}/big.wav`
      const declared = await alice.client.storage.from(BUCKET).upload(path, buffer(bytes(1001, 10)), { contentType: 'audio/wav' })
      expect(declared.error).toMatchObject({ status: 413, statusCode: '413', message: 'The object exceeded the maximum allowed size' })
      expect(await answerBeforeBody(`/storage/v1/object/${BUCKET}/${path}`, alice.token, { 'Content-Type': 'audio/wav' })).toMatchObject({
        status: 413,
        json: { statusCode: '413' },
      })
      // Without Content-Length the limit holds while streaming.
      const big = bytes(5_000, 11)
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < big.length; i += 700) controller.enqueue(big.slice(i, i + 700))
          controller.close()
        },
      })
      const streamed = await alice.client.storage.from(BUCKET).upload(path, stream, { contentType: 'audio/wav' })
      expect(streamed.error).toMatchObject({ status: 413, statusCode: '413' })
      expect(await objectRow(path)).toBeUndefined()
      expect(bucketFiles()).toEqual(before)
      expect(tempFiles()).toEqual([])
      // Exactly at the limit is fine.
      expect((await alice.client.storage.from(BUCKET).upload(path, buffer(bytes(1000, 12)), { contentType: 'audio/wav' })).error).toBeNull()
      expect((await alice.client.storage.from(BUCKET).remove([path])).data).toHaveLength(1)
    } finally {
      await sql(server, "update storage.buckets set file_size_limit = 268435456 where id = 'studio-audio'")
    }

    const mp3 = await alice.client.storage
      .from(BUCKET)
      .upload(`${alice.id}/${PROJECT}/song.mp3`, buffer(bytes(100, 13)), { contentType: 'audio/mpeg' })
    expect(mp3.error).toMatchObject({ status: 400, statusCode: '415', message: 'mime type audio/mpeg is not supported' })
    // storage-js's default content type when none is given.
    const plain = await alice.client.storage.from(BUCKET).upload(`${alice.id}/${PROJECT}/notes.txt`, buffer(bytes(100, 14)))
    expect(plain.error).toMatchObject({ statusCode: '415', message: 'mime type text/plain;charset=UTF-8 is not supported' })
    expect(bucketFiles()).toEqual(before)
  })

  it('an upload the client abandons half-way stores nothing, logs no server error, and the next one is stored', async () => {
    const before = bucketFiles()
    const path = `${alice.id}/${PROJECT}/abandoned.wav`
    const errors = vi.spyOn(console, 'error')
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request({
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: `/storage/v1/object/${BUCKET}/${path}`,
          headers: {
            apikey: server.keys.anonKey,
            Authorization: `Bearer ${alice.token}`,
            'Content-Type': 'audio/wav',
            'Content-Length': String(1024 * 1024),
          },
        })
        req.on('error', () => resolve())
        req.on('response', () => reject(new Error('answered before the body was sent')))
        // A closed tab: the first 64 KiB, then the connection is gone.
        req.write(Buffer.from(bytes(64 * 1024, 15)), () => setTimeout(() => req.destroy(), 50))
      })
      await expect.poll(() => tempFiles(), { timeout: 5000 }).toEqual([])
      expect(await objectRow(path)).toBeUndefined()
      expect(bucketFiles()).toEqual(before)
      expect(errors.mock.calls.filter(([first]) => String(first).startsWith('local storage'))).toEqual([])
    } finally {
      errors.mockRestore()
    }
    const again = await alice.client.storage.from(BUCKET).upload(path, buffer(bytes(2000, 16)), { contentType: 'audio/wav' })
    expect(again.error).toBeNull()
    expect((await alice.client.storage.from(BUCKET).remove([path])).data).toHaveLength(1)
  })

  it('refuses malformed paths, bad tokens, unknown buckets and unserved routes with clear messages', async () => {
    const session = (await alice.client.auth.getSession()).data.session!
    const wav = Buffer.from(bytes(10, 15))
    const headers = { 'Content-Type': 'audio/wav', 'x-upsert': 'true' }
    const cases: [string, RegExp][] = [
      [`/storage/v1/object/${BUCKET}/${alice.id}/../${bob.id}/x.wav`, /"\." and "\.\." segments are not allowed/],
      [`/storage/v1/object/${BUCKET}/${alice.id}/%2e%2e/%2E%2E/x.wav`, /"\." and "\.\." segments are not allowed/],
      [`/storage/v1/object/${BUCKET}/../../../rest/v1/songs`, /"\." and "\.\." segments are not allowed/],
      [`/storage/v1/object/${BUCKET}/${alice.id}\\x.wav`, /backslashes are not allowed/],
      [`/storage/v1/object/${BUCKET}/${alice.id}%5Cx.wav`, /backslashes are not allowed/],
      [`/storage/v1/object/${BUCKET}//etc/passwd`, /absolute paths are not allowed/],
      [`/storage/v1/object/${BUCKET}/${alice.id}//x.wav`, /empty folder name/],
      [`/storage/v1/object/${BUCKET}/${alice.id}/`, /names a folder/],
      [`/storage/v1/object/${BUCKET}/${alice.id}/%00x.wav`, /control characters are not allowed/],
      [`/storage/v1/object/${BUCKET}/${alice.id}/%E0%A4%A.wav`, /malformed percent-encoding/],
    ]
    for (const [path, message] of cases) {
      const answer = await rawRequest('POST', path, session.access_token, wav, headers)
      expect(answer.status, path).toBe(400)
      expect(answer.json, path).toMatchObject({ statusCode: '400', error: 'InvalidKey', message: expect.stringMatching(message) })
    }
    expect(await sql(server, "select name from storage.objects where name like '%x.wav' or name like '%passwd'")).toEqual([])
    expect(tempFiles()).toEqual([])

    // Through supabase-js: an empty path and a control character.
    expect((await alice.client.storage.from(BUCKET).upload('', buffer(wav), { contentType: 'audio/wav' })).error).toMatchObject({
      statusCode: '400',
      message: expect.stringMatching(/empty/),
    })
    expect(
      (await alice.client.storage.from(BUCKET).upload(`${alice.id}/a\u0001b.wav`, buffer(wav), { contentType: 'audio/wav' })).error,
    ).toMatchObject({ statusCode: '400', message: expect.stringMatching(/control characters/) })
    expect((await downloadBytes(alice.client, `${alice.id}/a\u0001b.wav`)).error).toMatchObject({ statusCode: '400' })

    const forged = session.access_token.slice(0, -4) + 'AAAA'
    const badToken = await rawRequest('GET', `/storage/v1/object/${BUCKET}/${alice.id}/${PROJECT}/clip-1.wav`, forged)
    expect(badToken).toEqual({
      status: 400,
      json: { statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message: 'Invalid JWT: JWT signature does not match' },
    })

    const noBucket = await alice.client.storage
      .from('no-such-bucket')
      .upload(`${alice.id}/x.wav`, buffer(wav), { contentType: 'audio/wav' })
    expect(noBucket.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' })

    const move = await alice.client.storage.from(BUCKET).move(`${alice.id}/a.wav`, `${alice.id}/b.wav`)
    expect(move.error).toMatchObject({ status: 404, statusCode: '404', message: expect.stringMatching(/not served/) })
    const buckets = await alice.client.storage.listBuckets()
    expect(buckets.error).toMatchObject({ status: 404, message: expect.stringMatching(/bucket API are not served/) })
  })

  it(
    'list: the files and folders directly inside a prefix that RLS lets the caller see; search, sort and paging; an ' +
      'empty folder is [] not an error',
    async () => {
      const put = async (name: string) =>
        expect(
          (
            await alice.client.storage
              .from(BUCKET)
              .upload(`${alice.id}/listing/${name}`, buffer(bytes(64, name.length)), { contentType: 'audio/wav', upsert: true })
          ).error,
        ).toBeNull()
      for (const name of ['b.wav', 'a.wav', 'sub/c.wav', 'sub/deeper/d.wav', 'a_b.wav']) await put(name)
      const { data, error } = await alice.client.storage.from(BUCKET).list(`${alice.id}/listing`)
      expect(error).toBeNull()
      expect(data!.map((e) => [e.name, e.id === null])).toEqual([
        ['a.wav', false],
        ['a_b.wav', false],
        ['b.wav', false],
        ['sub', true],
      ])
      expect(data![0]).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        metadata: expect.objectContaining({ mimetype: 'audio/wav', size: 64 }),
      })
      expect((await alice.client.storage.from(BUCKET).list(`${alice.id}/listing/sub`)).data!.map((e) => e.name)).toEqual([
        'c.wav',
        'deeper',
      ])
      expect((await alice.client.storage.from(BUCKET).list(`${alice.id}/listing`, { search: 'A_' })).data!.map((e) => e.name)).toEqual([
        'a_b.wav',
      ])
      expect(
        (
          await alice.client.storage
            .from(BUCKET)
            .list(`${alice.id}/listing`, { limit: 2, offset: 1, sortBy: { column: 'name', order: 'desc' } })
        ).data!.map((e) => e.name),
      ).toEqual(['b.wav', 'a_b.wav'])
      // An _ in the prefix means itself, not a LIKE pattern.
      expect((await alice.client.storage.from(BUCKET).list(`${alice.id}/listin_`)).data).toEqual([])
      expect((await alice.client.storage.from(BUCKET).list(`${alice.id}/nothing-here`)).data).toEqual([])
      // RLS: another user and a visitor see nothing of Alice's private folder.
      expect((await bob.client.storage.from(BUCKET).list(`${alice.id}/listing`)).data).toEqual([])
      expect((await supabaseClient(server).storage.from(BUCKET).list(`${alice.id}/listing`)).data).toEqual([])
      const bad = await rawRequest('POST', `/storage/v1/object/list/${BUCKET}`, alice.token, Buffer.from('{"prefix": 3}'), {
        'Content-Type': 'application/json',
      })
      expect(bad).toMatchObject({ status: 400, json: { statusCode: '400', message: 'prefix must be a string' } })
      await alice.client.storage
        .from(BUCKET)
        .remove(['b.wav', 'a.wav', 'sub/c.wav', 'sub/deeper/d.wav', 'a_b.wav'].map((n) => `${alice.id}/listing/${n}`))
    },
  )

  it('studio_projects.audio_uploaded_at: set by the owner only, kept when the metadata row is upserted again', async () => {
    const id = 'a0000000-0000-4000-8000-0000000000a2'
    const meta = {
      id,
      name: 'Copy me',
      trackCount: 2,
      durationSeconds: 8,
      createdAt: Date.UTC(2026, 0, 1),
      updatedAt: Date.UTC(2026, 0, 2),
    }
    await upsertStudioProject(alice.client, meta)
    const read = async () =>
      (await alice.client.from('studio_projects').select('audio_uploaded_at').eq('id', id).single()).data!.audio_uploaded_at as
        | string
        | null
    expect(await read()).toBeNull()

    const at = '2026-01-02T00:00:00.000Z'
    const marked = await alice.client.from('studio_projects').update({ audio_uploaded_at: at }).eq('id', id).select('id')
    expect(marked.error).toBeNull()
    expect(marked.data).toHaveLength(1)
    expect(Date.parse((await read())!)).toBe(Date.parse(at))

    // Re-saving the metadata (name, counts, dates) updates only the columns it sends.
    const resaved = await upsertStudioProject(alice.client, {
      ...meta,
      name: 'Copy me (v2)',
      trackCount: 3,
      updatedAt: Date.UTC(2026, 0, 3),
    })
    expect(resaved).toMatchObject({ name: 'Copy me (v2)', trackCount: 3 })
    expect(Date.parse((await read())!)).toBe(Date.parse(at))

    const bobMarks = await bob.client.from('studio_projects').update({ audio_uploaded_at: null }).eq('id', id).select('id')
    expect(bobMarks.data).toEqual([])
    expect(Date.parse((await read())!)).toBe(Date.parse(at))
  })
})

describe('Storage files on disk', () => {
  it('survive a restart on the same data folder; LOCAL_DATA_RESET empties them; an in-memory server removes its folder on ' +
    'close', async () => {
    // The folder's files are under test, not migrating: every start here begins from the run's migrated dump.
    const pgliteSnapshot = await migratedSnapshot()
    const persistent = await startTestServer({ persistent: true, pgliteSnapshot })
    const dataDir = persistent.dataDir!
    const storageDir = persistent.storageDir
    expect(storageDir).toBe(`${dataDir}-storage`)
    const user = await signUp(persistent, 'keeper@example.com', 'storage-pass')
    const client = supabaseClient(persistent)
    await client.auth.signInWithPassword({ email: user.email, password: user.password })
    const path = `${user.id}/${PROJECT}/kept.wav`
    const data = bytes(20_000, 30)
    expect((await client.storage.from(BUCKET).upload(path, buffer(data), { contentType: 'audio/wav' })).error).toBeNull()
    await persistent.server.close()
    persistent.server.closeAllConnections()
    await persistent.db.close()

    const reopened = await startLocalServer({ emailConfirm: false, dataDir, port: 0, bcryptRounds: 4 })
    try {
      const again = supabaseClient(reopened)
      await again.auth.signInWithPassword({ email: user.email, password: user.password })
      const { data: blob, error } = await again.storage.from(BUCKET).download(path)
      expect(error).toBeNull()
      expect(md5(new Uint8Array(await blob!.arrayBuffer()))).toBe(md5(data))
    } finally {
      await reopened.close()
    }
    expect(readdirSync(join(storageDir, BUCKET))).toHaveLength(1)

    const wiped = await startLocalServer({ emailConfirm: false, dataDir, reset: true, port: 0, bcryptRounds: 4, pgliteSnapshot })
    await wiped.close()
    // Emptied: the folder may stay (made again owner-only at start), the files are gone.
    expect(existsSync(storageDir) ? readdirSync(storageDir, { recursive: true }) : []).toEqual([])
    await rm(dataDir, { recursive: true, force: true })

    const inMemory = await startLocalServer({ emailConfirm: false, port: 0, bcryptRounds: 4, pgliteSnapshot })
    expect(existsSync(inMemory.storageDir)).toBe(true)
    await inMemory.close()
    expect(existsSync(inMemory.storageDir)).toBe(false)
  }, 60_000)
})

describe('Storage on PostgreSQL 15 (through pg, truly concurrent transactions)', () => {
  let cluster: PostgresCluster | undefined
  let pgServer: Awaited<ReturnType<typeof startLocalServer>> | undefined
  let skipReason = ''
  beforeAll(async () => {
    const started = await startPostgresCluster()
    if (typeof started === 'string') {
      skipReason = started
      console.warn(`PostgreSQL storage tests skipped: ${started}`)
      return
    }
    cluster = started
    pgServer = await startLocalServer({ emailConfirm: false, databaseUrl: cluster.url, port: 0, bcryptRounds: 4 })
  }, 60_000)
  afterAll(async () => {
    await pgServer?.close()
    cluster?.stop()
  })

  it('upload, overwrite, RLS and remove behave the same; racing upserts of one name leave one row and one file', async (context) => {
    if (!pgServer) return context.skip(skipReason)
    const users = await Promise.all(
      ['carol-pg@example.com', 'dave-pg@example.com'].map(async (email) => {
        const user = await signUp(pgServer!, email, 'storage-pass')
        const client = supabaseClient(pgServer!)
        await client.auth.signInWithPassword({ email, password: 'storage-pass' })
        return { id: user.id, client }
      }),
    )
    const [carol, dave] = users as [(typeof users)[0], (typeof users)[0]]
    const path = `${carol.id}/${PROJECT}/clip.wav`
    const data = bytes(50_000, 40)
    expect((await carol.client.storage.from(BUCKET).upload(path, buffer(data), { contentType: 'audio/wav' })).error).toBeNull()
    const { data: blob } = await carol.client.storage.from(BUCKET).download(path)
    expect(md5(new Uint8Array(await blob!.arrayBuffer()))).toBe(md5(data))
    expect((await dave.client.storage.from(BUCKET).download(path)).error).toMatchObject({ statusCode: '404' })
    expect(
      (await dave.client.storage.from(BUCKET).upload(path, buffer(data), { contentType: 'audio/wav', upsert: true })).error,
    ).toMatchObject({ statusCode: '403' })
    expect((await carol.client.storage.from(BUCKET).upload(path, buffer(data), { contentType: 'audio/wav' })).error).toMatchObject({
      statusCode: '409',
    })

    const racePath = `${carol.id}/${PROJECT}/race.wav`
    const versions = Array.from({ length: 8 }, (_, i) => bytes(20_000 + i, 50 + i))
    const answers = await Promise.all(
      versions.map((v) => carol.client.storage.from(BUCKET).upload(racePath, buffer(v), { contentType: 'audio/wav', upsert: true })),
    )
    expect(answers.map((a) => a.error)).toEqual(versions.map(() => null))
    const rows = (await pgServer.db.query<{ version: string }>('select version from storage.objects where name = $1', [racePath])).rows
    expect(rows).toHaveLength(1)
    const { data: raced } = await carol.client.storage.from(BUCKET).download(racePath)
    const racedMd5 = md5(new Uint8Array(await raced!.arrayBuffer()))
    expect(versions.map(md5)).toContain(racedMd5)
    // Every replaced version's file was deleted: the bucket folder holds exactly the two objects.
    expect(readdirSync(join(pgServer.storageDir, BUCKET)).sort()).toEqual(
      (await pgServer.db.query<{ version: string }>('select version from storage.objects order by version')).rows
        .map((r) => r.version)
        .sort(),
    )

    const removed = await carol.client.storage.from(BUCKET).remove([path, racePath])
    expect(removed.data).toHaveLength(2)
    expect(readdirSync(join(pgServer.storageDir, BUCKET))).toEqual([])
  })
})
