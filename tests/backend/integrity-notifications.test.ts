import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'

// docs/security.md item 13: following and unfollowing in a loop must not flood the followed user with
// notices. At most one 'New follower' notice per (follower, followed) pair per UTC day, however
// the follows race.

let server: TestServer
let n = 0
async function person(): Promise<TestUser> {
  n += 1
  const name = `nf${n}x${Date.now() % 100000}`
  return signUp(server, `${name}@example.com`, 'pass-word', name)
}
const follow = (who: TestUser, whom: TestUser) =>
  api(server, '/rest/v1/follows', { token: who.accessToken, body: { follower_id: who.id, following_id: whom.id } })
const unfollow = (who: TestUser, whom: TestUser) =>
  api(server, `/rest/v1/follows?follower_id=eq.${who.id}&following_id=eq.${whom.id}`, { token: who.accessToken, method: 'DELETE' })
const followerNotices = async (user: TestUser) =>
  Number(
    (
      await sql<{ n: string }>(server, "select count(*)::text as n from public.notifications where user_id = $1 and kind = 'follower'", [
        user.id,
      ])
    )[0]!.n,
  )

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  it('follow/unfollow 15 times in a row: one notice', async () => {
    const [fan, star] = [await person(), await person()]
    for (let i = 0; i < 15; i++) {
      expect((await follow(fan, star)).status).toBe(201)
      expect((await unfollow(fan, star)).status).toBeLessThan(300)
    }
    expect(await followerNotices(star)).toBe(1)
  })

  it('concurrent follow/unfollow loops by two followers: one notice per pair', async () => {
    const [fan, other, star] = [await person(), await person(), await person()]
    const loop = async (who: TestUser) => {
      for (let i = 0; i < 10; i++) {
        await Promise.all([follow(who, star), unfollow(who, star), follow(who, star)])
      }
    }
    await Promise.all([loop(fan), loop(other), loop(fan)])
    expect(await followerNotices(star)).toBe(2)
  })

  it('the next UTC day the same follower may notify again', async () => {
    const [fan, star] = [await person(), await person()]
    await follow(fan, star)
    await unfollow(fan, star)
    // Yesterday's notice, as the clock would have it tomorrow.
    await sql(server, 'update public.follow_notices set day = day - 1 where follower_id = $1', [fan.id])
    await follow(fan, star)
    expect(await followerNotices(star)).toBe(2)
    await unfollow(fan, star)
    await follow(fan, star)
    expect(await followerNotices(star)).toBe(2)
  })
})
