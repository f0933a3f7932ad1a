import { afterAll, beforeAll, describe } from 'vitest'
import { rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests, type Expectation, type RlsCase } from './support/rls-matrix.ts'

// Comments & Earn and Governance tables × {anon, owner, another user} × CRUD. Every write goes
// through the definer functions (comments.test.ts, governance.test.ts): no direct insert (so no
// vote with a chosen power), no update (no vote is ever changed), no delete through the table.

const COMMENT = 'aaaaaaaa-1111-4111-8111-111111111111'
const PROPOSAL = 'bbbbbbbb-2222-4222-8222-222222222222'

let server: TestServer
let owner: TestUser
let other: TestUser
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)
const exists = async (text: string, params: unknown[] = []) => (await q(text, params)).length > 0
const ctx = () => rlsContext(server, owner, other)

const publicReadOnly: Expectation = {
  anon: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
  owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
  other: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
}

async function resetComment() {
  await q("delete from public.comments where body = 'forged'")
  await q(
    "insert into public.comments (id, song_id, user_id, username, body) values ($1, 'neon-drift', $2, 'owner', " +
      "'original') on conflict (id) do update set body = 'original', like_count = 0, deleted = false",
    [COMMENT, owner.id],
  )
}
async function resetProposal() {
  await q("delete from public.proposals where title = 'forged'")
  await q(
    'insert into public.proposals (id, author_id, author_name, title, description, category, ends_at) values ($1, $2, ' +
      "'owner', 'original', 'd', 'other', now() + interval '3 days') on conflict (id) do update set title = " +
      "'original', votes_for = 0, status = 'active'",
    [PROPOSAL, owner.id],
  )
}

const CASES: Record<string, RlsCase> = {
  comments: {
    target: () => `id=eq.${COMMENT}`,
    insert: ({ owner: { id } }) => ({ song_id: 'neon-drift', user_id: id, username: 'owner', body: 'forged' }),
    update: { body: 'changed', like_count: 1000 },
    inserted: () => exists("select 1 from public.comments where body = 'forged'"),
    untouched: () => exists("select 1 from public.comments where id = $1 and body = 'original' and like_count = 0", [COMMENT]),
    reset: resetComment,
    expect: publicReadOnly,
  },
  comment_likes: {
    target: ({ owner: { id } }) => `comment_id=eq.${COMMENT}&user_id=eq.${id}`,
    insert: ({ other: { id } }) => ({ comment_id: COMMENT, user_id: id, song_id: 'neon-drift' }),
    update: { created_at: '2001-01-01T00:00:00Z' },
    inserted: () => exists('select 1 from public.comment_likes where comment_id = $1 and user_id = $2', [COMMENT, other.id]),
    untouched: () =>
      exists("select 1 from public.comment_likes where comment_id = $1 and user_id = $2 and created_at > '2002-01-01'", [
        COMMENT,
        owner.id,
      ]),
    reset: async () => {
      await resetComment()
      await q('delete from public.comment_likes where comment_id = $1 and user_id = $2', [COMMENT, other.id])
      await q("insert into public.comment_likes (comment_id, user_id, song_id) values ($1, $2, 'neon-drift') on conflict do nothing", [
        COMMENT,
        owner.id,
      ])
      await q('update public.comment_likes set created_at = now() where comment_id = $1', [COMMENT])
    },
    expect: publicReadOnly,
  },
  proposals: {
    target: () => `id=eq.${PROPOSAL}`,
    insert: ({ owner: { id } }) => ({
      author_id: id,
      author_name: 'owner',
      title: 'forged',
      description: 'd',
      category: 'other',
      ends_at: '2099-01-01T00:00:00Z',
    }),
    update: { votes_for: 1000000, status: 'passed' },
    inserted: () => exists("select 1 from public.proposals where title = 'forged'"),
    untouched: () => exists("select 1 from public.proposals where id = $1 and votes_for = 0 and status = 'active'", [PROPOSAL]),
    reset: resetProposal,
    expect: publicReadOnly,
  },
  votes: {
    target: ({ owner: { id } }) => `proposal_id=eq.${PROPOSAL}&user_id=eq.${id}`,
    // A vote with a power of the client's choosing.
    insert: ({ other: { id } }) => ({ proposal_id: PROPOSAL, user_id: id, choice: 'for', power: 1000000 }),
    update: { power: 1000000, choice: 'against' },
    inserted: () => exists('select 1 from public.votes where power = 1000000'),
    untouched: () =>
      exists("select 1 from public.votes where proposal_id = $1 and user_id = $2 and power = 80 and choice = 'for'", [PROPOSAL, owner.id]),
    reset: async () => {
      await resetProposal()
      await q('delete from public.votes where proposal_id = $1 and user_id <> $2', [PROPOSAL, owner.id])
      await q(
        "insert into public.votes (proposal_id, user_id, choice, power) values ($1, $2, 'for', 80) on conflict " +
          "(proposal_id, user_id) do update set choice = 'for', power = 80",
        [PROPOSAL, owner.id],
      )
    },
    expect: {
      ...readOnlyOwn,
      owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
    },
  },
  delegations: {
    target: ({ owner: { id } }) => `delegator_id=eq.${id}`,
    insert: ({ other: { id } }) => ({ delegator_id: id, delegate_id: null }),
    update: { delegate_id: null },
    inserted: () => exists('select 1 from public.delegations where delegator_id = $1', [other.id]),
    untouched: () => exists('select 1 from public.delegations where delegator_id = $1 and delegate_id is not null', [owner.id]),
    reset: async () => {
      await q('delete from public.delegations where delegator_id = $1', [other.id])
      const third = (await q<{ user_id: string }>("select user_id from public.profiles where username = 'third'"))[0]!.user_id
      await q(
        'insert into public.delegations (delegator_id, delegate_id) values ($1, $2) on conflict (delegator_id) do update ' +
          'set delegate_id = excluded.delegate_id',
        [owner.id, third],
      )
    },
    expect: readOnlyOwn,
  },
}

beforeAll(async () => {
  server = await startTestServer()
  owner = await signUp(server, 'owner@example.com', 'owner-pass', 'owner')
  other = await signUp(server, 'other@example.com', 'other-pass', 'other')
  await signUp(server, 'third@example.com', 'third-pass', 'third')
  await rpc(server, owner.accessToken, 'init_user_tokens')
  await rpc(server, other.accessToken, 'init_user_tokens')
}, 60_000)
afterAll(() => server?.close())

describe('RLS matrix: comments, comment_likes, proposals, votes, delegations', () => {
  rlsMatrixTests(CASES, ctx)
})
