import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'

// Loudness stored with the song (supabase/schemas/catalogue.sql): the creator's measurement of a
// published song is recorded once, for their own song only, within range; the catalogue seed
// carries the values measured when its files were generated; anyone reads them with the song.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

let n = 0
async function user(): Promise<TestUser> {
  n += 1
  return signUp(server, `loud${n}-${Date.now()}@example.com`, 'pass-word', `loud${n}x${Date.now() % 100000}`)
}
async function ownedSong(owner: TestUser): Promise<string> {
  n += 1
  const id = `pub-loud-${n}-${Date.now()}`
  await q("insert into public.songs (id, slug, title, artist, duration_seconds, owner_id) values ($1, $1, 'T', 'A', 60, $2)", [
    id,
    owner.id,
  ])
  return id
}
const stored = async (id: string) =>
  (
    await q<{ l: number | null; t: number | null }>('select loudness_lufs as l, true_peak_dbtp as t from public.songs where id = $1', [id])
  )[0]!

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  it('records the creator’s measurement once: a second call changes nothing', async () => {
    const alice = await user()
    const id = await ownedSong(alice)
    const first = await rpc(server, alice.accessToken, 'record_song_loudness', {
      p_song_id: id,
      p_loudness_lufs: -9.5,
      p_true_peak_dbtp: 0.4,
    })
    expect(first.status).toBe(200)
    expect(first.json).toBe(true)
    const again = await rpc(server, alice.accessToken, 'record_song_loudness', {
      p_song_id: id,
      p_loudness_lufs: -30,
      p_true_peak_dbtp: -20,
    })
    expect(again.json).toBe(false)
    const row = await stored(id)
    expect(row.l).toBeCloseTo(-9.5, 3)
    expect(row.t).toBeCloseTo(0.4, 3)
  })

  it('refuses another user’s song, a visitor, and values outside what a file can have', async () => {
    const alice = await user()
    const bob = await user()
    const id = await ownedSong(alice)
    const other = await rpc(server, bob.accessToken, 'record_song_loudness', { p_song_id: id, p_loudness_lufs: -14, p_true_peak_dbtp: -1 })
    expect(other.status).toBe(403)
    expect(other.json.message).toMatch(/Only the creator/)
    const anon = await api(server, '/rest/v1/rpc/record_song_loudness', {
      body: { p_song_id: id, p_loudness_lufs: -14, p_true_peak_dbtp: -1 },
    })
    expect(anon.status).toBeGreaterThanOrEqual(400)
    for (const [l, t] of [
      [-90, -1],
      [5, 0],
      [-14, 40],
    ]) {
      const r = await rpc(server, alice.accessToken, 'record_song_loudness', { p_song_id: id, p_loudness_lufs: l, p_true_peak_dbtp: t })
      expect(r.status).toBe(400)
      expect(r.json.message).toMatch(/between/)
    }
    expect(await stored(id)).toEqual({ l: null, t: null })
    // The table's own check holds whatever writes it.
    await expect(q('update public.songs set loudness_lufs = 10 where id = $1', [id])).rejects.toThrow(/songs_loudness_lufs_range/)
  })

  it('serves the catalogue’s measured loudness with each catalogue song', async () => {
    const rows = await api(server, '/rest/v1/songs?select=id,loudness_lufs,true_peak_dbtp&owner_id=is.null')
    expect(rows.status).toBe(200)
    const songs = rows.json as { id: string; loudness_lufs: number | null; true_peak_dbtp: number | null }[]
    expect(songs.length).toBeGreaterThanOrEqual(45)
    for (const s of songs) {
      expect(s.loudness_lufs, s.id).toBeGreaterThan(-40)
      expect(s.loudness_lufs, s.id).toBeLessThan(0)
      expect(s.true_peak_dbtp, s.id).toBeLessThan(3)
    }
  })
})
