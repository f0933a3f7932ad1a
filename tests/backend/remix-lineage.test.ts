import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'

// Remix lineage: a published remix names its source (songs.remix_of) and the source's
// page lists its remixes. record_remix_source() takes the source from the server's own record of
// the remix (remixes.source_ref, written when the 50 CUBE were burned), never from the client, and
// links only the caller's own published song to the caller's own rendered remix, once. Attacked
// here through the API as an ordinary account, another account and a visitor.

let server: TestServer
let maker: TestUser
let other: TestUser
let n = 0

beforeAll(async () => {
  server = await startTestServer()
  maker = await signUp(server, `lineage-maker-${Date.now()}@example.com`, 'correct-horse', `lmaker${Date.now() % 100000}`)
  other = await signUp(server, `lineage-other-${Date.now()}@example.com`, 'correct-horse', `lother${Date.now() % 100000}`)
  // The published song remixes are made from (another creator's).
  await sql(
    server,
    'insert into public.songs (id, title, artist, duration_seconds, slug, owner_id) ' +
      "values ('pub-src', 'Source', 'o', 60, 'source-song', $1)",
    [other.id],
  )
}, 60_000)
afterAll(async () => {
  await server?.close()
})

/** A published song of `owner` (as publish_song leaves it). */
async function song(owner: TestUser): Promise<string> {
  const id = `pub-lineage-${++n}`
  await sql(server, 'insert into public.songs (id, title, artist, duration_seconds, slug, owner_id) values ($1, $2, $3, 60, $1, $4)', [
    id,
    `Remix ${n}`,
    'm',
    owner.id,
  ])
  return id
}

/** A remix attempt of `owner`, as remix_burn()/remix_complete() leave it. */
async function remix(owner: TestUser, source = 'pub-src', status: 'burned' | 'rendered' | 'refunded' = 'rendered'): Promise<string> {
  const [row] = await sql<{ id: string }>(
    server,
    'insert into public.remixes (user_id, attempt_key, source_ref, cost, status) values ($1, $2, $3, 50, $4) returning id',
    [owner.id, `lineage-attempt-${++n}`, source, status],
  )
  return row!.id
}

const record = (user: TestUser, songId: string, remixId: string) =>
  rpc(server, user.accessToken, 'record_remix_source', { p_song_id: songId, p_remix_id: remixId })
const lineage = async (songId: string) =>
  (
    await sql<{ remix_id: string | null; remix_of: string | null }>(server, 'select remix_id, remix_of from public.songs where id = $1', [
      songId,
    ])
  )[0]!

describe('record_remix_source', () => {
  it('links the creator’s song to their rendered remix and names the source the server recorded; the source lists it', async () => {
    const id = await song(maker)
    const r = await remix(maker)
    const first = await record(maker, id, r)
    expect(first.status).toBe(200)
    expect(first.json).toEqual({ remix_of: 'pub-src', recorded: true })
    expect(await lineage(id)).toEqual({ remix_id: r, remix_of: 'pub-src' })
    // Public: a visitor reads both directions through the API.
    const remixes = await api(server, '/rest/v1/songs?select=id,remix_of&remix_of=eq.pub-src')
    expect(remixes.json).toContainEqual({ id, remix_of: 'pub-src' })
    // Once: the same pair again (a retried publish) answers the same and changes nothing.
    expect((await record(maker, id, r)).json).toEqual({ remix_of: 'pub-src', recorded: false })
  })

  it('a remix of a track that is not on the server (the user’s own Library) is linked and names no source', async () => {
    const id = await song(maker)
    const r = await remix(maker, 'remix-local-track-123')
    expect((await record(maker, id, r)).json).toEqual({ remix_of: null, recorded: true })
    expect(await lineage(id)).toEqual({ remix_id: r, remix_of: null })
  })

  it('refuses another account’s remix, another account’s song, an unfinished or refunded remix, and a visitor', async () => {
    const mine = await song(maker)
    const theirs = await song(other)
    const theirRemix = await remix(other)
    const myRemix = await remix(maker)
    const refusals = [
      [await record(maker, mine, theirRemix), 'This is not one of your remixes.'],
      [await record(maker, theirs, myRemix), 'Only the creator of a published song can say which remix it is.'],
      [
        await record(maker, mine, await remix(maker, 'pub-src', 'burned')),
        'Only a finished remix can be published as one (this one is burned).',
      ],
      [
        await record(maker, mine, await remix(maker, 'pub-src', 'refunded')),
        'Only a finished remix can be published as one (this one is refunded).',
      ],
      [await record(maker, 'no-such-song', myRemix), 'Only the creator of a published song can say which remix it is.'],
    ] as const
    for (const [answer, message] of refusals) {
      expect(answer.status, message).toBeGreaterThanOrEqual(400)
      expect(answer.json.message).toBe(message)
    }
    const visitor = await api(server, '/rest/v1/rpc/record_remix_source', { body: { p_song_id: mine, p_remix_id: myRemix } })
    expect(visitor.status).toBe(401)
    expect(await lineage(mine)).toEqual({ remix_id: null, remix_of: null })
    expect(await lineage(theirs)).toEqual({ remix_id: null, remix_of: null })
  })

  it('one remix, one song: a second song for the same remix and a second remix for the same song are refused', async () => {
    const a = await song(maker)
    const b = await song(maker)
    const r1 = await remix(maker)
    const r2 = await remix(maker)
    expect((await record(maker, a, r1)).status).toBe(200)
    expect((await record(maker, b, r1)).json.message).toBe('This remix is already published as another song.')
    expect((await record(maker, a, r2)).json.message).toBe('This song is already published as another remix.')
    expect(await lineage(b)).toEqual({ remix_id: null, remix_of: null })
  })

  it('racing calls for one remix from two songs link exactly one of them', async () => {
    const songs = [await song(maker), await song(maker)]
    const r = await remix(maker)
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => record(maker, songs[i % 2]!, r)))
    expect(answers.filter((a) => a.status === 200 && a.json.recorded === true)).toHaveLength(1)
    for (const a of answers) if (a.status !== 200) expect(a.json.message).toBe('This remix is already published as another song.')
    const linked = await sql(server, 'select id from public.songs where remix_id = $1', [r])
    expect(linked).toHaveLength(1)
  })

  it('nobody writes the lineage columns through the API, not even the song’s creator', async () => {
    const id = await song(maker)
    const write = await api(server, `/rest/v1/songs?id=eq.${id}`, {
      method: 'PATCH',
      token: maker.accessToken,
      body: { remix_of: 'pub-src' },
    })
    expect(write.status).toBeGreaterThanOrEqual(400)
    expect(await lineage(id)).toEqual({ remix_id: null, remix_of: null })
  })
})
