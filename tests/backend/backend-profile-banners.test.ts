import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BANNER_MAX_BYTES,
  PROFILE_BANNER_BUCKET,
  bannerPath,
  fetchBanner,
  removeBanner,
  uploadBanner,
} from '../../src/backend/profile-banner.ts'
import { signUp, sql, startTestServer, supabaseClient, type TestServer } from './support/local-backend.ts'
import { withSignature } from './support/media-bytes.ts'

// The public bucket `profile-banners` (supabase/schemas/storage.sql) through
// supabase-js as the app calls it: the RLS matrix {anon, owner, other} × {read, insert, update,
// delete} on the owner's object `<owner id>/banner`, and the bucket's own size and type limits.
//   read: 'allowed' (the bytes come back) · insert/update/delete: 'allowed' (the change happened)
//   or 'denied' (refused, or a remove that removes nothing, and the object is as it was)

type Actor = 'anon' | 'owner' | 'other'
type Op = 'read' | 'insert' | 'update' | 'delete'

const MATRIX: Record<Actor, Record<Op, 'allowed' | 'denied'>> = {
  anon: { read: 'allowed', insert: 'denied', update: 'denied', delete: 'denied' },
  owner: { read: 'allowed', insert: 'allowed', update: 'allowed', delete: 'allowed' },
  other: { read: 'allowed', insert: 'denied', update: 'denied', delete: 'denied' },
}

let server: TestServer
let owner: { client: SupabaseClient; id: string }
let other: { client: SupabaseClient; id: string }
let visitor: SupabaseClient

async function signedIn(email: string) {
  const user = await signUp(server, email, 'banner-pass')
  const client = supabaseClient(server)
  const { error } = await client.auth.signInWithPassword({ email, password: 'banner-pass' })
  expect(error).toBeNull()
  return { client, id: user.id }
}

beforeAll(async () => {
  server = await startTestServer()
  owner = await signedIn('owner-banner@example.com')
  other = await signedIn('other-banner@example.com')
  visitor = supabaseClient(server)
}, 60_000)
afterAll(() => server?.close())

const png = (marker: number) => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, marker])], { type: 'image/png' })
const ORIGINAL = 1
const clientOf = (actor: Actor) => (actor === 'anon' ? visitor : actor === 'owner' ? owner.client : other.client)

/** The stored object's last byte (our marker), or null when there is none (superuser view). */
async function storedMarker(): Promise<number | null> {
  const rows = await sql<{ n: string }>(server, 'select count(*)::text as n from storage.objects where bucket_id = $1 and name = $2', [
    PROFILE_BANNER_BUCKET,
    bannerPath(owner.id),
  ])
  if (rows[0]!.n === '0') return null
  const blob = await fetchBanner(owner.client, owner.id)
  const bytes = new Uint8Array(await blob!.arrayBuffer())
  return bytes[bytes.length - 1]!
}

async function resetFixture(present: boolean) {
  await owner.client.storage.from(PROFILE_BANNER_BUCKET).remove([bannerPath(owner.id)])
  if (present) await uploadBanner(owner.client, owner.id, png(ORIGINAL))
}

describe('profile-banners: RLS matrix through supabase-js', () => {
  for (const actor of ['anon', 'owner', 'other'] as const) {
    for (const op of ['read', 'insert', 'update', 'delete'] as const) {
      const expected = MATRIX[actor][op]
      it(`profile-banners × ${actor} × ${op} → ${expected}`, async () => {
        const bucket = clientOf(actor).storage.from(PROFILE_BANNER_BUCKET)
        const path = bannerPath(owner.id)
        if (op === 'read') {
          await resetFixture(true)
          const blob = await fetchBanner(clientOf(actor), owner.id)
          expect(blob?.type).toBe('image/png')
          expect(new Uint8Array(await blob!.arrayBuffer()).at(-1)).toBe(ORIGINAL)
          return
        }
        if (op === 'insert') {
          await resetFixture(false)
          const { error } = await bucket.upload(path, png(2), { contentType: 'image/png' })
          if (expected === 'allowed') expect(error).toBeNull()
          else expect(error).toMatchObject({ statusCode: '403' })
          expect(await storedMarker()).toBe(expected === 'allowed' ? 2 : null)
          return
        }
        await resetFixture(true)
        if (op === 'update') {
          const { error } = await bucket.upload(path, png(3), { contentType: 'image/png', upsert: true })
          if (expected === 'allowed') expect(error).toBeNull()
          else expect(error).toMatchObject({ statusCode: '403' })
          expect(await storedMarker()).toBe(expected === 'allowed' ? 3 : ORIGINAL)
          return
        }
        const { data, error } = await bucket.remove([path])
        expect(error).toBeNull()
        expect(data).toHaveLength(expected === 'allowed' ? 1 : 0)
        expect(await storedMarker()).toBe(expected === 'allowed' ? null : ORIGINAL)
      })
    }
  }
  it('nobody can write into another user’s folder, even under a different name', async () => {
    const { error } = await other.client.storage
      .from(PROFILE_BANNER_BUCKET)
      .upload(`${owner.id}/other-name`, png(9), { contentType: 'image/png' })
    expect(error).toMatchObject({ statusCode: '403' })
  })
})

describe('profile-banners: the bucket enforces its limits whatever the client sends', () => {
  it('refuses a type outside PNG/JPEG/WebP (415) and a file over 2 MiB (413), keeping the banner', async () => {
    await resetFixture(true)
    const bucket = owner.client.storage.from(PROFILE_BANNER_BUCKET)
    const gif = await bucket.upload(bannerPath(owner.id), new Blob([new Uint8Array(10)], { type: 'image/gif' }), {
      contentType: 'image/gif',
      upsert: true,
    })
    expect(gif.error).toMatchObject({ statusCode: '415' })
    const big = await bucket.upload(bannerPath(owner.id), new Blob([new Uint8Array(BANNER_MAX_BYTES + 1)], { type: 'image/png' }), {
      contentType: 'image/png',
      upsert: true,
    })
    expect(big.error).toMatchObject({ statusCode: '413' })
    expect(await storedMarker()).toBe(ORIGINAL)
    // Exactly at the limit is fine, and JPEG and WebP are accepted.
    for (const type of ['image/jpeg', 'image/webp']) {
      expect(
        (
          await bucket.upload(bannerPath(owner.id), new Blob([withSignature(type, new Uint8Array(16))], { type }), {
            contentType: type,
            upsert: true,
          })
        ).error,
      ).toBeNull()
    }
    expect(
      (
        await bucket.upload(
          bannerPath(owner.id),
          new Blob([withSignature('image/png', new Uint8Array(BANNER_MAX_BYTES))], { type: 'image/png' }),
          { contentType: 'image/png', upsert: true },
        )
      ).error,
    ).toBeNull()
  })

  it('the client module refuses the same files before sending, and fetchBanner is null without an upload', async () => {
    await resetFixture(true)
    await expect(uploadBanner(owner.client, owner.id, new Blob(['x'], { type: 'text/plain' }))).rejects.toThrow('PNG, JPEG or WebP')
    await expect(
      uploadBanner(owner.client, owner.id, new Blob([new Uint8Array(BANNER_MAX_BYTES + 1)], { type: 'image/png' })),
    ).rejects.toThrow('at most 2 MB')
    expect(await storedMarker()).toBe(ORIGINAL)
    await removeBanner(owner.client, owner.id)
    expect(await fetchBanner(owner.client, owner.id)).toBeNull()
    expect(await fetchBanner(visitor, owner.id)).toBeNull()
  })
})
