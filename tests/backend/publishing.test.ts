import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, seededBytes, signUp, sql, startTestServer, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'
import { webmLasting, withSignature } from './support/media-bytes.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests } from './support/rls-matrix.ts'

// Publishing through the local backend as the app does it (supabase-js 2.109): upload to the
// public bucket, the server measures the stored file (measure-audio), publish_song(), read by
// anyone from the public URL (with Range), unpublish_song() by the owner only, and the limits in
// publishing_rules() enforced by the server.

const AUDIO = 'published-audio'
const COVERS = 'published-covers'

let server: TestServer
let alice: { client: SupabaseClient; user: TestUser }
let bob: { client: SupabaseClient; user: TestUser }
let visitor: SupabaseClient

async function signedIn(email: string, username: string) {
  const user = await signUp(server, email, 'publish-pass', username)
  const client = supabaseClient(server)
  const { error } = await client.auth.signInWithPassword({ email, password: 'publish-pass' })
  expect(error).toBeNull()
  return { client, user }
}

// Stand-ins for WebM files: Storage checks the signature of audio (support/media-bytes.ts).
const bytes = (length: number, seed: number) => withSignature('audio/webm', seededBytes(length, seed))
/** The server reads the stored file's length (the measure-audio edge function), as the app asks it to. */
const measure = (client: SupabaseClient, path: string) =>
  client.functions.invoke<{ duration_seconds: number }>('measure-audio', { body: { path } })
/** The function's refusal in words (its { error } body). */
const refusal = async (error: unknown) => ((await (error as { context: Response }).context.json()) as { error: string }).error

async function upload(client: SupabaseClient, bucket: string, path: string, data: Uint8Array, contentType: string) {
  return client.storage.from(bucket).upload(path, data, { contentType })
}

async function publishAs(who: { client: SupabaseClient; user: TestUser }, title: string, data = webmLasting(30)) {
  const path = `${who.user.id}/${crypto.randomUUID()}.webm`
  const up = await upload(who.client, AUDIO, path, data, 'audio/webm')
  expect(up.error).toBeNull()
  expect((await measure(who.client, path)).error).toBeNull()
  const { data: song, error } = await who.client.rpc('publish_song', {
    p_title: title,
    p_genre: 'ambient',
    p_audio_path: path,
    p_attempt_key: crypto.randomUUID(),
  })
  return { path, song: song as { id: string; slug: string } | null, error }
}

beforeAll(async () => {
  server = await startTestServer()
  alice = await signedIn('alice-publish@example.com', 'alice_pub')
  bob = await signedIn('bob-publish@example.com', 'bob_pub')
  visitor = supabaseClient(server)
}, 60_000)
afterAll(() => server?.close())

describe('publishing', () => {
  it(
    'publishes a song owned by its creator that anyone reads from the public URL, with ranges, and the owner alone ' + 'unpublishes it',
    async () => {
      const audio = webmLasting(61.4375, 50_000)
      const coverPath = `${alice.user.id}/${crypto.randomUUID()}.png`
      expect(
        (await upload(alice.client, COVERS, coverPath, withSignature('image/png', seededBytes(2_000, 3)), 'image/png')).error,
      ).toBeNull()
      const path = `${alice.user.id}/${crypto.randomUUID()}.webm`
      expect((await upload(alice.client, AUDIO, path, audio, 'audio/webm')).error).toBeNull()
      expect((await measure(alice.client, path)).data).toEqual({ duration_seconds: 61.438 })
      const { data, error } = await alice.client.rpc('publish_song', {
        p_title: '  Night Bus!  ',
        p_genre: 'jazz',
        p_audio_path: path,
        p_cover_path: coverPath,
        p_attempt_key: crypto.randomUUID(),
      })
      expect(error).toBeNull()
      const song = data as { id: string; slug: string }
      expect(song.slug).toBe('night-bus')

      // In everyone's catalogue, owned by Alice, artist = her username.
      const { data: rows } = await visitor
        .from('songs')
        .select('id, title, artist, slug, genre, owner_id, audio_url, cover_url, duration_seconds')
        .eq('slug', 'night-bus')
      expect(rows).toEqual([
        {
          id: song.id,
          title: 'Night Bus!',
          artist: 'alice_pub',
          slug: 'night-bus',
          genre: 'jazz',
          owner_id: alice.user.id,
          duration_seconds: 61.438, // the file's length to the millisecond, as the server read it
          audio_url: `/storage/v1/object/public/${AUDIO}/${path}`,
          cover_url: `/storage/v1/object/public/${COVERS}/${coverPath}`,
        },
      ])

      // getPublicUrl is the URL the row names; anyone reads it without a token.
      const publicUrl = visitor.storage.from(AUDIO).getPublicUrl(path).data.publicUrl
      expect(publicUrl).toBe(`${server.url}${rows![0]!.audio_url}`)
      const whole = await fetch(publicUrl)
      expect(whole.status).toBe(200)
      expect(whole.headers.get('accept-ranges')).toBe('bytes')
      expect(whole.headers.get('content-type')).toBe('audio/webm')
      expect(new Uint8Array(await whole.arrayBuffer())).toEqual(audio)

      const part = await fetch(publicUrl, { headers: { Range: 'bytes=1000-1999' } })
      expect(part.status).toBe(206)
      expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${audio.length}`)
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(audio.slice(1000, 2000))
      const tail = await fetch(publicUrl, { headers: { Range: 'bytes=-100' } })
      expect(tail.status).toBe(206)
      expect(new Uint8Array(await tail.arrayBuffer())).toEqual(audio.slice(-100))
      const open = await fetch(publicUrl, { headers: { Range: 'bytes=49990-' } })
      expect(open.headers.get('content-range')).toBe(`bytes 49990-49999/${audio.length}`)
      const outside = await fetch(publicUrl, { headers: { Range: 'bytes=50000-50010' } })
      expect(outside.status).toBe(416)
      expect(outside.headers.get('content-range')).toBe(`bytes */${audio.length}`)

      // A second song of the same title gets a unique slug.
      const again = await publishAs(alice, 'Night bus')
      expect(again.error).toBeNull()
      expect(again.song!.slug).toBe('night-bus-2')

      // Bob can neither unpublish it nor delete the row or its audio.
      const refused = await bob.client.rpc('unpublish_song', { p_song_id: song.id })
      expect(refused.error?.message).toBe('Only the creator of a song can unpublish it.')
      const direct = await api(server, `/rest/v1/songs?id=eq.${song.id}`, { method: 'DELETE', token: bob.user.accessToken })
      expect([401, 403]).toContain(direct.status)
      await bob.client.storage.from(AUDIO).remove([path])
      expect((await sql(server, 'select 1 from public.songs where id = $1', [song.id])).length).toBe(1)
      expect((await fetch(publicUrl)).status).toBe(200)

      // Alice unpublishes: the row goes, her client removes the objects, the URL stops answering;
      // listening history of the song stays.
      await sql(server, 'insert into public.user_listening_history (user_id, song_id, seconds) values ($1, $2, 40)', [bob.user.id, song.id])
      const gone = await alice.client.rpc('unpublish_song', { p_song_id: song.id })
      expect(gone.error).toBeNull()
      expect(gone.data).toEqual({ id: song.id, audio_path: path, cover_path: coverPath })
      expect((await alice.client.storage.from(AUDIO).remove([path])).data).toHaveLength(1)
      expect((await alice.client.storage.from(COVERS).remove([coverPath])).data).toHaveLength(1)
      expect((await visitor.from('songs').select('id').eq('id', song.id)).data).toEqual([])
      expect((await fetch(publicUrl)).status).toBe(400)
      expect((await sql(server, 'select 1 from public.user_listening_history where song_id = $1', [song.id])).length).toBe(1)
      const twice = await alice.client.rpc('unpublish_song', { p_song_id: song.id })
      expect(twice.error?.message).toBe(`No published song "${song.id}".`)
    },
  )

  it('refuses visitors, foreign folders, bad files and over-limit tracks with a clear message', async () => {
    const anonUpload = await upload(visitor, AUDIO, `${alice.user.id}/x.webm`, bytes(100, 1), 'audio/webm')
    expect(anonUpload.error?.message).toMatch(/row-level security/)
    const anonPublish = await visitor.rpc('publish_song', {
      p_title: 'x',
      p_genre: 'pop',
      p_audio_path: 'a/b.webm',
    })
    expect(anonPublish.error).not.toBeNull()
    expect((await sql(server, "select 1 from public.songs where title = 'x'")).length).toBe(0)

    // Bob cannot upload into Alice's folder, nor publish her object as his.
    expect((await upload(bob.client, AUDIO, `${alice.user.id}/bob.webm`, bytes(100, 1), 'audio/webm')).error?.message).toMatch(
      /row-level security/,
    )
    const alicePath = `${alice.user.id}/${crypto.randomUUID()}.webm`
    expect((await upload(alice.client, AUDIO, alicePath, webmLasting(30, 10_000), 'audio/webm')).error).toBeNull()
    expect((await measure(alice.client, alicePath)).error).toBeNull()
    const stolen = await bob.client.rpc('publish_song', {
      p_title: 'Mine',
      p_genre: 'pop',
      p_audio_path: alicePath,
      p_attempt_key: crypto.randomUUID(),
    })
    expect(stolen.error?.message).toBe(`Upload the audio to your own folder of ${AUDIO} first.`)

    // Not audio, raw WAV, or too big: refused by Storage before anything is stored.
    const text = await upload(alice.client, AUDIO, `${alice.user.id}/notes.webm`, new TextEncoder().encode('hello'), 'text/plain')
    expect(text.error?.message).toBe('mime type text/plain is not supported')
    const wav = await upload(alice.client, AUDIO, `${alice.user.id}/raw.wav`, bytes(100, 1), 'audio/wav')
    expect(wav.error?.message).toBe('mime type audio/wav is not supported')
    const huge = await upload(alice.client, AUDIO, `${alice.user.id}/huge.webm`, bytes(10 * 1024 * 1024 + 1, 4), 'audio/webm')
    expect(huge.error?.message).toBe('The object exceeded the maximum allowed size')

    const call = (args: Record<string, unknown>) =>
      alice.client.rpc('publish_song', {
        p_title: 'Fine',
        p_genre: 'pop',
        p_audio_path: alicePath,
        p_attempt_key: crypto.randomUUID(),
        ...args,
      })
    // Too long or too short, by the file's own length.
    const measured = async (seconds: number) => {
      const path = `${alice.user.id}/${crypto.randomUUID()}.webm`
      expect((await upload(alice.client, AUDIO, path, webmLasting(seconds), 'audio/webm')).error).toBeNull()
      expect((await measure(alice.client, path)).error).toBeNull()
      return path
    }
    expect((await call({ p_audio_path: await measured(601) })).error?.message).toBe(
      'A published track must last 5 s to 10 minutes; this one lasts 601 s.',
    )
    expect((await call({ p_audio_path: await measured(2) })).error?.message).toBe(
      'A published track must last 5 s to 10 minutes; this one lasts 2 s.',
    )
    expect((await call({ p_title: '   ' })).error?.message).toBe('The title must be 1 to 100 characters.')
    expect((await call({ p_genre: 'polka' })).error?.message).toBe('Unknown genre "polka".')
    expect((await sql(server, "select 1 from public.songs where title = 'Fine'")).length).toBe(0)
  })

  it("the length is the stored file's as the server reads it, never the publisher's", async () => {
    // A 60 s file whose publisher would call it 5 s long: publish_song takes no length at all.
    const path = `${alice.user.id}/${crypto.randomUUID()}.webm`
    expect((await upload(alice.client, AUDIO, path, webmLasting(60), 'audio/webm')).error).toBeNull()
    const declared = await alice.client.rpc('publish_song', {
      p_title: 'Declared short',
      p_genre: 'pop',
      p_audio_path: path,
      p_duration_seconds: 5,
      p_attempt_key: crypto.randomUUID(),
    })
    expect(declared.error?.code).toBe('PGRST202')
    // Not measured yet: refused in words.
    const unmeasured = await alice.client.rpc('publish_song', {
      p_title: 'Declared short',
      p_genre: 'pop',
      p_audio_path: path,
      p_attempt_key: crypto.randomUUID(),
    })
    expect(unmeasured.error?.message).toBe(
      'The server has not measured this audio file yet (or it changed since): measure it with the measure-audio function, then publish.',
    )
    // A user cannot write a length of their own.
    const forged = await alice.client.rpc('record_audio_duration', { p_path: path, p_size: 20_000, p_seconds: 5 })
    expect(forged.error?.code).toBe('42501')
    expect((await measure(alice.client, path)).data).toEqual({ duration_seconds: 60 })
    const published = await alice.client.rpc('publish_song', {
      p_title: 'Declared short',
      p_genre: 'pop',
      p_audio_path: path,
      p_attempt_key: crypto.randomUUID(),
    })
    expect(published.error).toBeNull()
    const id = (published.data as { id: string }).id
    expect(await sql(server, 'select duration_seconds::float8 as d from public.songs where id = $1', [id])).toEqual([{ d: 60 }])
  })

  it("reads a real MP3 to the frame; refuses a file it cannot read, one replaced after it was measured, another user's", async () => {
    const mp3 = new Uint8Array(await (await import('node:fs/promises')).readFile('public/audio/catalogue/concrete-garden.mp3'))
    const mp3Path = `${alice.user.id}/${crypto.randomUUID()}.mp3`
    expect((await upload(alice.client, AUDIO, mp3Path, mp3, 'audio/mpeg')).error).toBeNull()
    const read = await measure(alice.client, mp3Path)
    expect(read.data!.duration_seconds).toBeCloseTo(80.867, 1)

    // WebM's signature, then noise: Storage accepts it, the server cannot tell its length.
    const noisePath = `${alice.user.id}/${crypto.randomUUID()}.webm`
    expect((await upload(alice.client, AUDIO, noisePath, bytes(20_000, 9), 'audio/webm')).error).toBeNull()
    const noise = await measure(alice.client, noisePath)
    expect(noise.response?.status).toBe(422)
    expect(await refusal(noise.error)).toBe(
      'The file could not be read as WebM, Ogg, MP3 or WAV audio, so the server cannot tell how long it is; ' +
        'export it again and publish that file.',
    )
    const refused = await alice.client.rpc('publish_song', {
      p_title: 'Noise',
      p_genre: 'pop',
      p_audio_path: noisePath,
      p_attempt_key: crypto.randomUUID(),
    })
    expect(refused.error?.message).toMatch(/has not measured this audio file/)

    // Measured as 5 s, then replaced by a 10-minute file at the same path: not the file that was measured.
    const swapPath = `${alice.user.id}/${crypto.randomUUID()}.webm`
    expect((await upload(alice.client, AUDIO, swapPath, webmLasting(5), 'audio/webm')).error).toBeNull()
    expect((await measure(alice.client, swapPath)).data).toEqual({ duration_seconds: 5 })
    const swapped = await alice.client.storage
      .from(AUDIO)
      .upload(swapPath, webmLasting(590, 30_000), { contentType: 'audio/webm', upsert: true })
    if (swapped.error) {
      expect((await alice.client.storage.from(AUDIO).remove([swapPath])).error).toBeNull()
      expect((await upload(alice.client, AUDIO, swapPath, webmLasting(590, 30_000), 'audio/webm')).error).toBeNull()
    }
    const stale = await alice.client.rpc('publish_song', {
      p_title: 'Swapped',
      p_genre: 'pop',
      p_audio_path: swapPath,
      p_attempt_key: crypto.randomUUID(),
    })
    expect(stale.error?.message).toMatch(/has not measured this audio file yet \(or it changed since\)/)

    // Bob cannot have Alice's file measured, nor name a path outside his folder.
    for (const path of [mp3Path, `${bob.user.id}/../${mp3Path}`, 'nope']) {
      const other = await measure(bob.client, path)
      expect(other.response?.status, path).toBe(400)
    }
    expect((await measure(bob.client, `${bob.user.id}/${crypto.randomUUID()}.webm`)).response?.status).toBe(404)
    expect((await measure(visitor, mp3Path)).response?.status).toBe(401)
  })

  it('holds the per-day limit, also across unpublishing', async () => {
    const carol = await signedIn('carol-publish@example.com', 'carol_pub')
    const rules = (await visitor.rpc('publishing_rules')).data as { per_day: number }
    expect(rules.per_day).toBe(10)
    const first = await publishAs(carol, 'Daily 1')
    expect(first.error).toBeNull()
    expect((await carol.client.rpc('unpublish_song', { p_song_id: first.song!.id })).error).toBeNull()
    for (let i = 2; i <= 10; i++) expect((await publishAs(carol, `Daily ${i}`)).error).toBeNull()
    const over = await publishAs(carol, 'Daily 11')
    expect(over.error?.message).toBe('You can publish 10 tracks per day; try again tomorrow (UTC).')
    expect((await sql(server, 'select count(*)::int as n from public.songs where owner_id = $1', [carol.user.id]))[0]).toEqual({ n: 9 })
  })

  it('serves only public buckets at /object/public', async () => {
    const path = `${alice.user.id}/p/project.json`
    const res = await fetch(`${server.url}/storage/v1/object/public/studio-audio/${path}`)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { statusCode: string }).statusCode).toBe('404')
  })
})

describe('public playlists', () => {
  it('shows only the playlists their owner made public, with catalogue songs only; nobody else can make them public', async () => {
    const { data: list } = await alice.client.from('playlists').insert({ name: 'Late Night' }).select('id').single<{ id: string }>()
    const { data: hidden } = await alice.client.from('playlists').insert({ name: 'Secret' }).select('id').single<{ id: string }>()
    expect(
      (
        await alice.client.from('playlist_songs').insert([
          { playlist_id: list!.id, song_id: 'orbital-haze', position: 0 },
          { playlist_id: list!.id, song_id: 'idb:my-private-take', position: 1 },
          { playlist_id: list!.id, song_id: 'neon-drift', position: 2 },
          { playlist_id: hidden!.id, song_id: 'neon-drift', position: 0 },
        ])
      ).error,
    ).toBeNull()
    const shown = async () =>
      (await visitor.rpc('public_playlists', { p_user_id: alice.user.id })).data as {
        name: string
        track_count: number
        songs: { id: string; slug: string }[]
      }[]
    expect(await shown()).toEqual([])

    // Bob cannot flip Alice's flag (RLS hides her row from his update).
    await bob.client.from('playlists').update({ is_public: true }).eq('id', list!.id)
    expect(await shown()).toEqual([])

    expect((await alice.client.from('playlists').update({ is_public: true }).eq('id', list!.id)).error).toBeNull()
    expect(await shown()).toEqual([
      {
        id: list!.id,
        name: 'Late Night',
        track_count: 2,
        songs: [
          { id: 'orbital-haze', title: 'Orbital Haze', artist: 'Ambient Spaces', slug: 'orbital-haze' },
          { id: 'neon-drift', title: 'Neon Drift', artist: 'Synthwave Collective', slug: 'neon-drift' },
        ],
      },
    ])
    // The tables themselves stay private to others.
    expect((await bob.client.from('playlists').select('id').eq('id', list!.id)).data).toEqual([])
  })
})

describe('song_publications RLS', () => {
  let owner: TestUser
  let other: TestUser
  beforeAll(async () => {
    owner = alice.user
    other = bob.user
    await sql(server, "insert into public.song_publications (user_id, song_id) values ($1, 'rls-fixture')", [owner.id])
  })
  const exists = (text: string, params: unknown[]) => sql(server, text, params).then((r) => r.length > 0)
  rlsMatrixTests(
    {
      song_publications: {
        target: ({ owner: { id } }) => `user_id=eq.${id}&song_id=eq.rls-fixture`,
        insert: ({ owner: { id } }) => ({ user_id: id, song_id: 'rls-inserted' }),
        update: { song_id: 'rls-changed' },
        inserted: () => exists("select 1 from public.song_publications where song_id = 'rls-inserted'", []),
        untouched: () => exists("select 1 from public.song_publications where song_id = 'rls-fixture'", []),
        reset: async () => {
          await sql(server, "delete from public.song_publications where song_id in ('rls-inserted', 'rls-changed')")
          await sql(
            server,
            "insert into public.song_publications (user_id, song_id) select $1, 'rls-fixture' where not exists (select 1 " +
              "from public.song_publications where song_id = 'rls-fixture')",
            [owner.id],
          )
        },
        expect: readOnlyOwn,
      },
      // Written by the measure-audio function alone (service role): nobody reads or writes it over the API.
      audio_durations: {
        target: () => 'name=eq.rls-fixture',
        insert: ({ owner: { id } }) => ({
          object_id: '00000000-0000-4000-8000-0000000000aa',
          owner_id: id,
          bucket_id: AUDIO,
          name: 'rls-inserted',
          object_updated_at: '2030-01-01T00:00:00Z',
          duration_seconds: 5,
        }),
        update: { duration_seconds: 1 },
        inserted: () => exists("select 1 from public.audio_durations where name = 'rls-inserted'", []),
        untouched: () => exists("select 1 from public.audio_durations where name = 'rls-fixture' and duration_seconds = 60", []),
        reset: () =>
          sql(
            server,
            'insert into public.audio_durations (object_id, owner_id, bucket_id, name, object_updated_at, duration_seconds) values ' +
              "('00000000-0000-4000-8000-0000000000ff', $1, $2, 'rls-fixture', now(), 60) " +
              'on conflict (object_id) do update set duration_seconds = 60',
            [owner.id, AUDIO],
          ),
        expect: {
          anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
          owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
          other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        },
      },
    },
    () => rlsContext(server, owner, other),
  )
})
