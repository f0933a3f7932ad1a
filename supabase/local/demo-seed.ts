import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'

// `npm run demo`: a living app for a newcomer. Three accounts, their playlists, a short comment
// thread and an open proposal, made through the public API as users would make them (the server's
// rules, rewards and ledger apply). Run once per data folder: a second run finds the accounts and
// adds nothing.

export const DEMO_PASSWORD = 'demo-password'
export const DEMO_ACCOUNTS = [
  { email: 'demo.ava@cube.test', username: 'ava_neon' },
  { email: 'demo.kai@cube.test', username: 'kai_beats' },
  { email: 'demo.mio@cube.test', username: 'mio_waves' },
] as const

const noSession = { persistSession: false, autoRefreshToken: false }

async function must<T>(what: string, p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p
  if (error) throw new Error(`demo: ${what}: ${error instanceof Error ? error.message : JSON.stringify(error)}`)
  return data
}

/** Marks a demo account's e-mail confirmed from the server side (its addresses have no mailbox). */
export type ConfirmEmail = (email: string) => Promise<void>

/** Signs the account in, or registers it; `created` says which. */
async function account(url: string, anonKey: string, a: (typeof DEMO_ACCOUNTS)[number], confirm: ConfirmEmail) {
  // Node 20 has no WebSocket of its own; supabase-js wants one for Realtime even if unused.
  const db: SupabaseClient = createClient(url, anonKey, {
    auth: noSession,
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  })
  const signedIn = await db.auth.signInWithPassword({ email: a.email, password: DEMO_PASSWORD })
  if (!signedIn.error) return { db, created: false }
  const signedUp = await must(
    'sign-up',
    db.auth.signUp({ email: a.email, password: DEMO_PASSWORD, options: { data: { username: a.username } } }),
  )
  // With e-mail confirmations on, the new account waits for its link: the seed confirms it itself.
  if (!signedUp.session) {
    await confirm(a.email)
    const { error } = await db.auth.signInWithPassword({ email: a.email, password: DEMO_PASSWORD })
    if (error) throw new Error(`demo: sign-in: ${error.message}`)
  }
  await must('wallet', db.functions.invoke('init-user-tokens'))
  return { db, created: true }
}

async function playlist(db: SupabaseClient, name: string, ids: string[]) {
  const row = await must('playlist', db.from('playlists').insert({ name }).select('id').single())
  const id = (row as { id: string }).id
  await must('playlist songs', db.from('playlist_songs').insert(ids.map((song_id, position) => ({ playlist_id: id, song_id, position }))))
}

/** Seeds the demo content unless the demo accounts already exist; returns whether it seeded. */
export async function seedDemo(url: string, anonKey: string, confirm: ConfirmEmail): Promise<boolean> {
  const [ava, kai, mio] = [
    await account(url, anonKey, DEMO_ACCOUNTS[0], confirm),
    await account(url, anonKey, DEMO_ACCOUNTS[1], confirm),
    await account(url, anonKey, DEMO_ACCOUNTS[2], confirm),
  ]
  if (!ava.created) return false
  // The catalogue as the server has it (songs nobody published).
  const rows = await must('catalogue', ava.db.from('songs').select('id').is('owner_id', null).order('id'))
  // The Library's first songs first, so the demo's comments are where a newcomer looks.
  const first = ['neon-drift', 'low-tide-memory', 'circuit-breaker']
  const ids = (rows as { id: string }[]).map((r) => r.id)
  const songs = [...first.filter((id) => ids.includes(id)), ...ids.filter((id) => !first.includes(id))].slice(0, 5)
  await playlist(ava.db, 'Night Drive', [songs[0]!, songs[2]!, songs[4]!])
  await playlist(kai.db, 'Focus Beats', [songs[1]!, songs[3]!])
  await must('favourite', mio.db.from('favourites').insert({ song_id: songs[0]! }))

  const opening = await must('comment', ava.db.rpc('post_comment', { p_song_id: songs[0], p_body: 'That bassline at 0:40 is pure neon.' }))
  const parent = (opening as { comment: { id: string } }).comment.id
  await must('reply', kai.db.rpc('post_comment', { p_song_id: songs[0], p_body: 'Agreed! On repeat all night.', p_parent_id: parent }))
  await must('comment', mio.db.rpc('post_comment', { p_song_id: songs[1], p_body: 'Perfect for a rainy afternoon.' }))

  await must(
    'proposal',
    ava.db.rpc('create_proposal', {
      p_title: 'Monthly remix contest',
      p_description: 'Pick one catalogue song each month; the community votes on the best remix, which is featured on CUBE Radio.',
      p_category: 'community',
      p_ends_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      p_attempt_key: 'demo-proposal-1',
    }),
  )
  // No vote: the demo accounts are new, and CUBE of an account not yet trusted when a proposal was
  // created carries no voting power on it (the governance page says so to whoever tries).
  return true
}
