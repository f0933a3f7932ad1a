import { supabase } from './client.ts'
import type { Tables } from './database.types.ts'

/** The wallet basics as the server reports them; never computed or edited on the client. */
export interface WalletBasics {
  balance: number
  daily_earned: number
  /** Credited listens in the current UTC day (the figure the daily cap counts). */
  listens_today: number
}

/** The UTC day the server's daily counters belong to ('YYYY-MM-DD'). */
export const utcDay = (at: Date = new Date()): string => at.toISOString().slice(0, 10)

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v ?? 0) || 0)

/** The edge function that creates the wallet (100 CUBE welcome bonus, once) and answers its basics. */
export async function initUserTokens(): Promise<{ balance: number; daily_earned: number }> {
  const { data, error } = await supabase().functions.invoke<{ wallet?: { balance?: unknown; daily_earned?: unknown } }>('init-user-tokens')
  if (error) throw error
  if (!data?.wallet) throw new Error('init-user-tokens answered without a wallet')
  return { balance: num(data.wallet.balance), daily_earned: num(data.wallet.daily_earned) }
}

/** The wallet columns the app reads; `day` may be absent from a row built before the wallet existed. */
type UserTokensRow = Pick<Tables<'user_tokens'>, 'balance' | 'daily_earned' | 'listens_today'> & { day: string | null }

/** Daily counters belong to a UTC day; a row last touched yesterday means nothing earned today yet. */
export function walletFromRow(row: UserTokensRow, today: string = utcDay()): WalletBasics {
  const current = row.day === null || String(row.day).slice(0, 10) === today
  return {
    balance: num(row.balance),
    daily_earned: current ? num(row.daily_earned) : 0,
    listens_today: current ? num(row.listens_today) : 0,
  }
}

export async function fetchWallet(userId: string): Promise<WalletBasics | null> {
  const { data, error } = await supabase()
    .from('user_tokens')
    .select('balance, daily_earned, listens_today, day')
    .eq('user_id', userId)
    .maybeSingle<UserTokensRow>()
  if (error) throw error
  return data ? walletFromRow(data) : null
}

export interface LedgerEntry {
  id: string
  amount: number
  reason: string
  reference: string | null
  created_at: string
}

export async function fetchLedger(userId: string, limit = 10): Promise<LedgerEntry[]> {
  const { data, error } = await supabase()
    .from('token_ledger')
    .select('id, amount, reason, reference, created_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .limit(limit)
  if (error) throw error
  return (data ?? []).map((r) => ({ ...r, id: String(r.id), amount: num(r.amount) }))
}

/** What the server answers about a listening session it measures (listen_start, listen_report, still_listening). */
export interface ListenAnswer {
  /** Null when the server opened no session (a song it does not know). */
  session_id: string | null
  /** Seconds the server itself saw play. */
  heard_seconds: number
  /** The server ended the session (another play of this account started it elsewhere). */
  ended: boolean
  credited: number
  balance: number
  daily_earned: number
  listens_today: number
  /** The cap the server applied; null only if its answer lacked one. */
  daily_cap: number | null
  cap_reached: boolean
  /** Null while undecided; 'credited' or why the listen earns nothing. */
  reason: string | null
  /** No interaction for an hour: listening earns again once the user answers "Still listening?". */
  needs_interaction: boolean
  /**
   * A start ends the account's previous session and settles it: what that settle decided, when it
   * decided something just then (the previous song credited at the skip). Only starts carry it.
   */
  previous?: { song_id: string; credited: number; reason: string | null } | null
}

/** Opens the server's listening session for a play of a catalogue or published song. */
export async function startListen(songId: string, playKey: string, interacted: boolean): Promise<ListenAnswer> {
  const { data, error } = await supabase().rpc('listen_start', { p_song_id: songId, p_play_id: playKey, p_interacted: interacted })
  if (error) throw error
  return parseListenAnswer(data)
}

/** Tells the server whether the session's music is playing; it counts the time itself. */
export async function reportListen(sessionId: string, playing: boolean, interacted: boolean, ended = false): Promise<ListenAnswer> {
  const { data, error } = await supabase().rpc('listen_report', {
    p_session_id: sessionId,
    p_playing: playing,
    p_interacted: interacted,
    p_ended: ended,
  })
  if (error) throw error
  return parseListenAnswer(data)
}

/** What the server answers about a play made offline (listen_offline): recorded as a play, never credited. */
export interface OfflinePlayAnswer {
  recorded: boolean
  /** 'offline' when recorded; otherwise why not: 'duplicate', 'offline_limit', 'too_old', 'unknown_song'. */
  reason: string
}

/** Reports a play made while offline: which song and when. The server decides what it counts as. */
export async function reportOfflinePlay(songId: string, playKey: string, playedAt: string): Promise<OfflinePlayAnswer> {
  const { data, error } = await supabase().rpc('listen_offline', { p_song_id: songId, p_play_id: playKey, p_played_at: playedAt })
  if (error) throw error
  const answer = (data ?? {}) as Record<string, unknown>
  return { recorded: answer.recorded === true, reason: typeof answer.reason === 'string' ? answer.reason : 'unknown' }
}

/** The listener answered "Still listening?". */
export async function confirmStillListening(): Promise<ListenAnswer> {
  const { data, error } = await supabase().rpc('still_listening')
  if (error) throw error
  return parseListenAnswer(data)
}

/** The server's answer to a listening call. */
export function parseListenAnswer(data: unknown): ListenAnswer {
  const answer = (data ?? {}) as Record<string, unknown>
  return {
    session_id: typeof answer.session_id === 'string' ? answer.session_id : null,
    heard_seconds: num(answer.heard_seconds),
    ended: answer.ended === true,
    credited: num(answer.credited),
    balance: num(answer.balance),
    daily_earned: num(answer.daily_earned),
    listens_today: num(answer.listens_today),
    daily_cap: num(answer.daily_cap) || null,
    cap_reached: answer.cap_reached === true,
    reason: typeof answer.reason === 'string' ? answer.reason : null,
    needs_interaction: answer.needs_interaction === true,
    previous: parsePrevious(answer.previous),
  }
}

function parsePrevious(value: unknown): ListenAnswer['previous'] {
  if (!value || typeof value !== 'object') return null
  const p = value as Record<string, unknown>
  if (typeof p.song_id !== 'string') return null
  return { song_id: p.song_id, credited: num(p.credited), reason: typeof p.reason === 'string' ? p.reason : null }
}

/** What a creator's published songs earned them from other people's listens. */
export interface CreatorEarnings {
  total: number
  today: number
  daily_cap: number
  per_listen: number
  songs: { song_id: string; title: string; slug: string; listens: number; cube: number }[]
}

export async function fetchCreatorEarnings(): Promise<CreatorEarnings> {
  const { data, error } = await supabase().rpc('my_creator_earnings')
  if (error) throw error
  const e = (data ?? {}) as Record<string, unknown>
  const songs = Array.isArray(e.songs) ? (e.songs as Record<string, unknown>[]) : []
  return {
    total: num(e.total),
    today: num(e.today),
    daily_cap: num(e.daily_cap),
    per_listen: num(e.per_listen),
    songs: songs.map((s) => ({
      song_id: String(s.song_id),
      title: String(s.title ?? ''),
      slug: String(s.slug ?? ''),
      listens: num(s.listens),
      cube: num(s.cube),
    })),
  }
}

export async function fetchIsAdmin(): Promise<boolean> {
  const { data, error } = await supabase().rpc('is_admin')
  if (error) throw error
  return data === true
}
