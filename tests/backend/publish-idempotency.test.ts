import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { webmLasting } from './support/media-bytes.ts'
import { signUp, sql, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'

// Double-clicking Publish published twice (two pages, two uses of the daily quota).
// publish_song() is idempotent per attempt: the app sends one attempt key per publish dialog, and a
// repeated key answers the first publication instead of making another, however the calls race.

const AUDIO = 'published-audio'
let server: TestServer
let n = 0

async function creator(): Promise<{ client: SupabaseClient; user: TestUser }> {
  n += 1
  const name = `pi${n}x${Date.now() % 100000}`
  const user = await signUp(server, `${name}@example.com`, 'publish-pass', name)
  const client = supabaseClient(server)
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: 'publish-pass' })
  expect(error).toBeNull()
  return { client, user }
}

/** A 30 s WebM file uploaded as the app does, under a fresh name, and measured by the server. */
async function uploadAudio(who: { client: SupabaseClient; user: TestUser }, seed: number): Promise<string> {
  const path = `${who.user.id}/${crypto.randomUUID()}.webm`
  const { error } = await who.client.storage.from(AUDIO).upload(path, webmLasting(30, 20_000 + seed), { contentType: 'audio/webm' })
  expect(error).toBeNull()
  expect((await who.client.functions.invoke('measure-audio', { body: { path } })).error).toBeNull()
  return path
}

const publish = (who: { client: SupabaseClient }, path: string, attemptKey: string | undefined, title = 'Double Click') =>
  who.client.rpc('publish_song', {
    p_title: title,
    p_genre: 'ambient',
    p_audio_path: path,
    ...(attemptKey === undefined ? {} : { p_attempt_key: attemptKey }),
  })

const count = async (table: 'songs' | 'song_publications', userId: string) =>
  Number(
    (
      await sql<{ n: string }>(
        server,
        `select count(*)::text as n from public.${table} where ${table === 'songs' ? 'owner_id' : 'user_id'} = $1`,
        [userId],
      )
    )[0]!.n,
  )

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  it('a double click (two uploads, two concurrent calls with one attempt key) makes one song and uses the quota once', async () => {
    const alice = await creator()
    const key = crypto.randomUUID()
    const paths = [await uploadAudio(alice, 1), await uploadAudio(alice, 2)]
    const answers = await Promise.all(paths.map((path) => publish(alice, path, key)))
    for (const a of answers) expect(a.error).toBeNull()
    const ids = answers.map((a) => (a.data as { id: string }).id)
    expect(new Set(ids).size).toBe(1)
    expect(answers.map((a) => (a.data as { repeated: boolean }).repeated).sort()).toEqual([false, true])
    expect(await count('songs', alice.user.id)).toBe(1)
    expect(await count('song_publications', alice.user.id)).toBe(1)
  })

  it('eight racing repeats of the last attempt of the day all answer its one publication, none refused by the quota', async () => {
    const bob = await creator()
    for (let i = 0; i < 9; i++)
      expect((await publish(bob, await uploadAudio(bob, 10 + i), crypto.randomUUID(), `Earlier ${i}`)).error).toBeNull()
    const key = crypto.randomUUID()
    const path = await uploadAudio(bob, 30)
    const answers = await Promise.all(Array.from({ length: 8 }, () => publish(bob, path, key, 'Tenth')))
    for (const a of answers) expect(a.error).toBeNull()
    expect(new Set(answers.map((a) => (a.data as { id: string }).id)).size).toBe(1)
    expect(await count('song_publications', bob.user.id)).toBe(10)
    // A new attempt is a new publication, and the quota now refuses it.
    const next = await publish(bob, await uploadAudio(bob, 31), crypto.randomUUID(), 'Eleventh')
    expect(next.error?.message).toBe('You can publish 10 tracks per day; try again tomorrow (UTC).')
  })

  it('a refused attempt records nothing: the same key then publishes once the input is fixed', async () => {
    const carol = await creator()
    const key = crypto.randomUUID()
    const path = await uploadAudio(carol, 40)
    const refused = await carol.client.rpc('publish_song', {
      p_title: 'Fixed',
      p_genre: 'polka',
      p_audio_path: path,
      p_attempt_key: key,
    })
    expect(refused.error?.message).toBe('Unknown genre "polka".')
    const fixed = await publish(carol, path, key, 'Fixed')
    expect(fixed.error).toBeNull()
    expect(fixed.data).toMatchObject({ repeated: false })
    expect(await count('songs', carol.user.id)).toBe(1)
  })

  it("attempt keys are each user's own: another user's key publishes their own track", async () => {
    const [dan, erin] = [await creator(), await creator()]
    const key = crypto.randomUUID()
    const a = await publish(dan, await uploadAudio(dan, 50), key, 'Dan')
    const b = await publish(erin, await uploadAudio(erin, 51), key, 'Erin')
    expect(a.error).toBeNull()
    expect(b.error).toBeNull()
    expect((a.data as { id: string }).id).not.toBe((b.data as { id: string }).id)
    expect(b.data).toMatchObject({ repeated: false })
  })

  it('a call without an attempt key, or with a malformed one, is refused in words', async () => {
    const frank = await creator()
    const path = await uploadAudio(frank, 60)
    expect((await publish(frank, path, undefined)).error?.message).toBe(
      'Each publication needs an attempt key of 8 to 100 characters; reload the page and publish again.',
    )
    expect((await publish(frank, path, 'short')).error?.message).toBe(
      'Each publication needs an attempt key of 8 to 100 characters; reload the page and publish again.',
    )
    expect(await count('songs', frank.user.id)).toBe(0)
  })
})
