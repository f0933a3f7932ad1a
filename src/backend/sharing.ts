import { supabase } from './client.ts'
import { jsonAs } from './rpc.ts'

/** Where a share goes; the server's share_rules() says what each pays. */
export type SharePlatform = 'twitter' | 'facebook' | 'copy_link' | 'qr' | 'share_now'
/** What is shared: a profile (/user/{username}), a song (/song/{slug}) or a generator recipe (/track/{id}). */
export type ShareItemType = 'user' | 'song' | 'track'

export interface ShareRules {
  amounts: Record<SharePlatform, number>
  daily_cap: number
}

/**
 * One shared link (public.share_links, the sharer's own rows only): it pays `amount` CUBE once a
 * day when someone else opens it from another client address. `status`: 'pending' until then,
 * 'credited' once it has paid today.
 */
export interface ShareLink {
  id: string
  token: string
  item_type: ShareItemType
  item_id: string
  platform: SharePlatform
  amount: number
  status: 'pending' | 'credited'
  shared_at: string
  credited_at: string | null
  /** What the last proven open did (credited, or why it paid nothing) and when. */
  last_open_reason: string | null
  last_open_at: string | null
}

/** What opening a shared link did: whether the sharer was paid, and why not. */
export interface ShareOpen {
  credited: boolean
  /**
   * credited | own_link | not_from_app | unproven_visit | visit_already_counted | visit_too_short | visit_expired |
   * same_client | linked_account | unknown_client | already_credited_today | visitor_already_paid | daily_cap |
   * address_cap (the opener's address has reached its daily bound)
   */
  reason: string
}

export interface ShareAnalytics {
  profile_visits: number
  track_plays: number
  followers: number
  shares: number
  shares_today: number
  /** The user's links still waiting for someone to open them. */
  shares_pending: number
  by_platform: Partial<Record<SharePlatform, number>>
  days: { day: string; visits: number; plays: number; shares: number }[]
}

export const SHARE_PLATFORMS: readonly SharePlatform[] = ['twitter', 'facebook', 'copy_link', 'qr', 'share_now']

/** Checks the server's rules; throws unless every amount and the cap are positive numbers. */
export function parseShareRules(answer: unknown): ShareRules {
  const a = answer as { amounts?: Record<string, unknown>; daily_cap?: unknown } | null
  const amounts = {} as Record<SharePlatform, number>
  for (const p of SHARE_PLATFORMS) {
    const v = Number(a?.amounts?.[p])
    if (!Number.isFinite(v) || v <= 0) throw new Error(`share_rules answered without a valid amount for ${p}`)
    amounts[p] = v
  }
  const cap = Number(a?.daily_cap)
  if (!Number.isFinite(cap) || cap <= 0) throw new Error('share_rules answered without a valid daily_cap')
  return { amounts, daily_cap: cap }
}

export async function fetchShareRules(): Promise<ShareRules> {
  const { data, error } = await supabase().rpc('share_rules')
  if (error) throw error
  return parseShareRules(data)
}

/** Makes (or gives back) the user's link for this item on this platform: pending, nothing paid yet. */
export async function createShareLink(itemType: ShareItemType, itemId: string, platform: SharePlatform): Promise<ShareLink> {
  const { data, error } = await supabase().rpc('share_create', { p_item_type: itemType, p_item_id: itemId, p_platform: platform })
  if (error) throw error
  return jsonAs<ShareLink>(data)
}

/** A visit of a shared page, to be redeemed once the page has been shown for `redeem_after_ms`. */
export interface ShareVisit {
  nonce: string
  redeem_after_ms: number
  expires_in_ms: number
}

/** The shared page was loaded: the server hands this page a visit (only to the app's own origin). */
export async function beginShareVisit(token: string): Promise<ShareVisit> {
  const { data, error } = await supabase().rpc('share_visit_begin', { p_token: token })
  if (error) throw error
  return jsonAs<ShareVisit>(data)
}

/** The shared page has been shown: the server pays the sharer for this visit when the rules allow it. */
export async function openShareLink(token: string, nonce: string): Promise<ShareOpen> {
  const { data, error } = await supabase().rpc('open_share', { p_token: token, p_nonce: nonce })
  if (error) throw error
  return jsonAs<ShareOpen>(data)
}

/** The two calls of a shared page's visit, together. */
export const shareVisitCalls = { begin: beginShareVisit, open: openShareLink }

const LINK_COLUMNS = 'id, token, item_type, item_id, platform, amount, status, shared_at, credited_at, last_open_reason, last_open_at'

/** The user's most recently shared links (RLS: their own only). */
export async function fetchShareLinks(limit = 50): Promise<ShareLink[]> {
  const { data, error } = await supabase().from('share_links').select(LINK_COLUMNS).order('shared_at', { ascending: false }).limit(limit)
  if (error) throw error
  return (data ?? []) as ShareLink[]
}

/** Live changes of the user's links (Realtime on public.share_links): pending → credited. Returns the unsubscribe. */
export function subscribeShareLinks(userId: string, onChange: (link: ShareLink) => void): () => void {
  const db = supabase()
  const channel = db
    .channel(`share-links:${userId}:${Math.random().toString(36).slice(2)}`)
    .on('postgres_changes', { event: '*', schema: 'public', table: 'share_links', filter: `user_id=eq.${userId}` }, (p) => {
      const row = p.new as Partial<ShareLink> | undefined
      if (row?.id && row.token) onChange(row as ShareLink)
    })
    .subscribe()
  return () => {
    void db.removeChannel(channel)
  }
}

export async function fetchShareAnalytics(): Promise<ShareAnalytics> {
  const { data, error } = await supabase().rpc('share_analytics')
  if (error) throw error
  return jsonAs<ShareAnalytics>(data)
}

/** Records a profile visit or a track play (deduplicated per viewer per UTC day on the server). */
export async function recordView(kind: 'profile' | 'play', itemId: string, visitorId?: string): Promise<void> {
  const { error } = await supabase().rpc('record_view', { p_kind: kind, p_item_id: itemId, ...(visitorId ? { p_visitor: visitorId } : {}) })
  if (error) throw error
}

export interface ShareableSong {
  id: string
  slug: string
  title: string
  artist: string
}

/** The catalogue as share targets (each song's page is /song/{slug}). */
export async function fetchShareableSongs(): Promise<ShareableSong[]> {
  const { data, error } = await supabase()
    .from('songs')
    .select('id, slug, title, artist')
    .order('created_at', { ascending: false })
    .order('title')
  if (error) throw error
  return (data ?? []) as ShareableSong[]
}
