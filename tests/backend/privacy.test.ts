import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadAvatar } from '../../src/backend/account-settings.ts'
import { avatarObjectPath, downloadAvatar } from '../../src/backend/profile-avatar.ts'
import { api, rpc, signUp, sql, startTestServer, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'

// Settings › Privacy through the API (not only the UI): a private profile shows others only its
// username; its bio, published tracks, playlists and listening activity are hidden by the server.

let server: TestServer
let owner: TestUser
let other: TestUser

beforeAll(async () => {
  server = await startTestServer()
  owner = await signUp(server, 'private-owner@example.com', 'owner-pass-1', 'hidden_owner')
  other = await signUp(server, 'curious@example.com', 'other-pass-1', 'curious')
  await sql(server, "update public.profiles set bio = 'secret bio' where user_id = $1", [owner.id])
  await sql(
    server,
    "insert into public.songs (id, title, artist, duration_seconds, owner_id, genre) values ('owner-track', 'Owner " +
      "Track', 'hidden_owner', 90, $1, 'lofi')",
    [owner.id],
  )
  await sql(
    server,
    "insert into public.playlists (id, user_id, name, is_public) values ('88888888-8888-4888-8888-888888888888', $1, 'Open list', true)",
    [owner.id],
  )
  await sql(server, "insert into public.user_listening_history (user_id, song_id, seconds) values ($1, 'neon-drift', 40)", [owner.id])
}, 60_000)
afterAll(() => server?.close())

const setPrefs = (values: Record<string, boolean>) =>
  api(server, '/rest/v1/user_settings', {
    token: owner.accessToken,
    body: { user_id: owner.id, ...values },
    headers: { Prefer: 'resolution=merge-duplicates,return=minimal' },
  })

async function seenBy(token: string | undefined) {
  const profile = await api(server, '/rest/v1/profiles?username=eq.hidden_owner&select=username,bio', { token })
  const songs = await api(server, '/rest/v1/songs?id=eq.owner-track&select=id', { token })
  const playlists = await api(server, '/rest/v1/rpc/public_playlists', { token, body: { p_user_id: owner.id } })
  const recent = await api(server, '/rest/v1/rpc/recent_listens', { token, body: { p_user_id: owner.id } })
  const name = await api(server, '/rest/v1/rpc/public_profile_name', { token, body: { p_username: 'hidden_owner' } })
  return { profile: profile.json, songs: songs.json.length, playlists: playlists.json.length, recent: recent.json.length, name: name.json }
}

describe('privacy', () => {
  it('public by default: everything shows', async () => {
    expect(await seenBy(other.accessToken)).toEqual({
      profile: [{ username: 'hidden_owner', bio: 'secret bio' }],
      songs: 1,
      playlists: 1,
      recent: 1,
      name: { user_id: owner.id, username: 'hidden_owner', private: false },
    })
  })

  it('show listening activity off hides only the activity', async () => {
    expect((await setPrefs({ show_activity: false })).status).toBeLessThan(300)
    expect((await seenBy(other.accessToken)).recent).toBe(0)
    expect((await seenBy(undefined)).recent).toBe(0)
    expect((await seenBy(owner.accessToken)).recent).toBe(1)
    await setPrefs({ show_activity: true })
  })

  it('a private profile: others (signed in or not) get only the username; the owner still sees everything', async () => {
    await setPrefs({ public_profile: false })
    for (const token of [other.accessToken, undefined]) {
      expect(await seenBy(token)).toEqual({
        profile: [],
        songs: 0,
        playlists: 0,
        recent: 0,
        name: { user_id: owner.id, username: 'hidden_owner', private: true },
      })
    }
    const own = await seenBy(owner.accessToken)
    expect(own).toMatchObject({ profile: [{ username: 'hidden_owner', bio: 'secret bio' }], songs: 1, playlists: 1, recent: 1 })
    expect(own.name.private).toBe(false)
    // Unknown names stay unknown.
    expect((await rpc(server, other.accessToken, 'public_profile_name', { p_username: 'nobody_here' })).json).toBeNull()
    await setPrefs({ public_profile: true })
    expect((await seenBy(other.accessToken)).songs).toBe(1)
  })

  it(
    "the app's avatar: the address the profile stores is downloaded through RLS, so a private profile's avatar reaches " + 'nobody else',
    async () => {
      const ownerDb = supabaseClient(server)
      await ownerDb.auth.signInWithPassword({ email: owner.email, password: owner.password })
      const png = Uint8Array.from(
        atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
        (c) => c.charCodeAt(0),
      )
      const address = await uploadAvatar(ownerDb, owner.id, new Blob([png], { type: 'image/png' }))
      const path = avatarObjectPath(address, server.url)!
      expect(path).toBe(`${owner.id}/avatar`)
      const otherDb = supabaseClient(server)
      await otherDb.auth.signInWithPassword({ email: other.email, password: other.password })
      expect((await downloadAvatar(supabaseClient(server), path))?.size).toBe(png.length)
      // The address by itself serves nothing: the bucket is not public.
      expect((await fetch(address.replace('/object/authenticated/', '/object/public/'))).status).toBeGreaterThanOrEqual(400)
      await setPrefs({ public_profile: false })
      expect(await downloadAvatar(otherDb, path)).toBeNull()
      expect(await downloadAvatar(supabaseClient(server), path)).toBeNull()
      expect((await downloadAvatar(ownerDb, path))?.size).toBe(png.length)
      await setPrefs({ public_profile: true })
    },
  )
})
