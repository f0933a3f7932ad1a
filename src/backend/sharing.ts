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

export interface ShareAnswer {
  credited: number
  /** credited | already_shared_today | daily_cap */
  reason: string
  balance: number
  shares_today: number
  daily_cap: number
}

export interface ShareAnalytics {
  profile_visits: number
  track_plays: number
  followers: number
  shares: number
  shares_today: number
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

/** Asks the server to credit one share; the answer says whether it did and why not. */
export async function creditShare(itemType: ShareItemType, itemId: string, platform: SharePlatform): Promise<ShareAnswer> {
  const { data, error } = await supabase().rpc('share_credit', { p_item_type: itemType, p_item_id: itemId, p_platform: platform })
  if (error) throw error
  return jsonAs<ShareAnswer>(data)
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
