import type { SupabaseClient } from '@supabase/supabase-js'
import type { Tables } from './database.types.ts'

// The Admin Dashboard's calls (supabase/schemas/admin.sql): everything but
// public_site_settings() answers only administrators; secrets go in, only masks come out.
// Every failure is an Error in the user's words.

export type AiCategory = 'image' | 'text' | 'music' | 'inference'

export interface AiSettings {
  category: AiCategory
  provider: string
  model: string
  base_url: string | null
  api_key_mask: string | null
  updated_at: string
}

export interface SiteSettings {
  site_title: string
  primary_color: string | null
  max_free_songs: number
  database_url_mask: string | null
  api_base_url: string | null
  api_timeout_ms: number
  max_retries: number
  updated_at: string
}

export interface PublicSiteSettings {
  site_title: string
  primary_color: string | null
  max_free_songs: number
}

export type AuditRow = Pick<Tables<'admin_audit'>, 'id' | 'actor_email' | 'area' | 'field' | 'old_value' | 'new_value' | 'created_at'>

export interface KnowledgeEntry {
  id: string
  title: string
  content: string
  created_at: string
  updated_at: string
}

interface PgError {
  code?: string
  message?: string
  details?: string | null
}

const CHECK_MESSAGES: Record<string, string> = {
  site_settings_primary_color_check: 'The primary colour must be a hex colour such as #8B5CF6.',
  site_settings_max_free_songs_check: 'Maximum free songs must be a whole number from 0 to 1000.',
  site_settings_api_timeout_ms_check: 'The API timeout must be at least 1000 ms, in steps of 1000.',
  site_settings_max_retries_check: 'Max retries must be from 0 to 10.',
  site_settings_api_base_url_check: 'The API base URL must start with http:// or https://.',
  site_settings_site_title_check: 'The site title must be 1 to 80 characters.',
  ai_provider_settings_base_url_check: 'The base URL must start with http:// or https://.',
}

/** A server error in the user's words. */
export function adminError(error: PgError): Error {
  if (error.code === '42501') return new Error(error.details ?? 'Administrators only.')
  const constraint = /constraint "([^"]+)"/.exec(error.message ?? '')?.[1]
  if (constraint && CHECK_MESSAGES[constraint]) return new Error(CHECK_MESSAGES[constraint])
  if (error.details) return new Error(error.details)
  return new Error(error.message ?? 'The server refused the change.')
}

export async function fetchAiSettings(db: SupabaseClient): Promise<AiSettings[]> {
  const { data, error } = await db.from('ai_provider_settings').select('category, provider, model, base_url, api_key_mask, updated_at')
  if (error) throw adminError(error)
  return data as AiSettings[]
}

/** apiKey: undefined keeps the stored key, '' removes it. */
export async function saveAiSettings(
  db: SupabaseClient,
  s: { category: AiCategory; provider: string; model: string; baseUrl: string; apiKey?: string },
): Promise<AiSettings> {
  const { data, error } = await db.rpc('admin_save_ai_settings', {
    p_category: s.category,
    p_provider: s.provider,
    p_model: s.model,
    p_base_url: s.baseUrl,
    p_api_key: s.apiKey ?? null,
  })
  if (error) throw adminError(error)
  return data as AiSettings
}

export async function testAiConnection(db: SupabaseClient, category: AiCategory): Promise<{ ok: boolean; message: string }> {
  const { data, error } = await db.functions.invoke<{ ok: boolean; message: string }>('ai-test-connection', { body: { category } })
  if (error) {
    const body = await (error as { context?: Response }).context?.json?.().catch(() => null)
    throw new Error((body as { error?: string } | null)?.error ?? error.message)
  }
  return data!
}

/** Text from the admin's Text AI provider, or null when it is the built-in generator (or unreachable). */
export async function serverText(db: SupabaseClient, prompt: string): Promise<string | null> {
  const { data, error } = await db.functions.invoke<{ text: string } | null>('ai-text', { body: { prompt } })
  if (error || !data || typeof data !== 'object' || typeof data.text !== 'string') return null
  return data.text
}

export async function fetchSiteSettings(db: SupabaseClient): Promise<SiteSettings> {
  const { data, error } = await db
    .from('site_settings')
    .select('site_title, primary_color, max_free_songs, database_url_mask, api_base_url, api_timeout_ms, max_retries, updated_at')
    .single()
  if (error) throw adminError(error)
  return data as SiteSettings
}

export interface SiteSettingsInput {
  siteTitle: string
  primaryColor: string
  maxFreeSongs: number
  /** undefined keeps the stored URL, '' removes it. */
  databaseUrl?: string
  apiBaseUrl: string
  apiTimeoutMs: number
  maxRetries: number
}

/** Why the form cannot be saved, field by field, before anything is sent; empty when it can. */
export function siteSettingsProblems(s: SiteSettingsInput): Partial<Record<keyof SiteSettingsInput, string>> {
  const out: Partial<Record<keyof SiteSettingsInput, string>> = {}
  if (!s.siteTitle.trim() || s.siteTitle.trim().length > 80) out.siteTitle = CHECK_MESSAGES.site_settings_site_title_check
  if (s.primaryColor && !/^#[0-9a-fA-F]{6}$/.test(s.primaryColor)) out.primaryColor = CHECK_MESSAGES.site_settings_primary_color_check
  if (!Number.isInteger(s.maxFreeSongs) || s.maxFreeSongs < 0 || s.maxFreeSongs > 1000)
    out.maxFreeSongs = CHECK_MESSAGES.site_settings_max_free_songs_check
  if (s.databaseUrl && !/^postgres(ql)?:\/\/[^\s/?#]+(\/\S*)?$/.test(s.databaseUrl))
    out.databaseUrl = 'A database URL looks like postgresql://user:password@host:5432/database.'
  if (s.apiBaseUrl && !/^https?:\/\/[^\s/?#]+([/?#]\S*)?$/.test(s.apiBaseUrl))
    out.apiBaseUrl = CHECK_MESSAGES.site_settings_api_base_url_check
  if (!Number.isInteger(s.apiTimeoutMs) || s.apiTimeoutMs < 1000 || s.apiTimeoutMs > 600000 || s.apiTimeoutMs % 1000 !== 0)
    out.apiTimeoutMs = CHECK_MESSAGES.site_settings_api_timeout_ms_check
  if (!Number.isInteger(s.maxRetries) || s.maxRetries < 0 || s.maxRetries > 10)
    out.maxRetries = CHECK_MESSAGES.site_settings_max_retries_check
  return out
}

export async function saveSiteSettings(db: SupabaseClient, s: SiteSettingsInput): Promise<SiteSettings> {
  const { data, error } = await db.rpc('admin_save_site_settings', {
    p_site_title: s.siteTitle,
    p_primary_color: s.primaryColor || null,
    p_max_free_songs: s.maxFreeSongs,
    p_database_url: s.databaseUrl ?? null,
    p_api_base_url: s.apiBaseUrl,
    p_api_timeout_ms: s.apiTimeoutMs,
    p_max_retries: s.maxRetries,
  })
  if (error) throw adminError(error)
  return data as SiteSettings
}

export async function fetchPublicSiteSettings(db: SupabaseClient): Promise<PublicSiteSettings> {
  const { data, error } = await db.rpc('public_site_settings')
  if (error) throw new Error(error.message)
  return data as PublicSiteSettings
}

export async function fetchAudit(db: SupabaseClient, limit = 50): Promise<AuditRow[]> {
  const { data, error } = await db
    .from('admin_audit')
    .select('id, actor_email, area, field, old_value, new_value, created_at')
    .order('id', { ascending: false })
    .limit(limit)
  if (error) throw adminError(error)
  return data as AuditRow[]
}

export async function searchKnowledge(db: SupabaseClient, query: string): Promise<KnowledgeEntry[]> {
  const { data, error } = await db.rpc('search_knowledge', { p_query: query })
  if (error) throw adminError(error)
  return data as KnowledgeEntry[]
}

export async function addKnowledge(db: SupabaseClient, title: string, content: string): Promise<void> {
  const { error } = await db.from('knowledge_base').insert({ title: title.trim(), content: content.trim() })
  if (error) throw adminError(error)
}

export async function updateKnowledge(db: SupabaseClient, id: string, title: string, content: string): Promise<void> {
  const { data, error } = await db
    .from('knowledge_base')
    .update({ title: title.trim(), content: content.trim(), updated_at: new Date().toISOString() })
    .eq('id', id)
    .select('id')
  if (error) throw adminError(error)
  if (!data?.length) throw new Error('That entry no longer exists.')
}

export async function deleteKnowledge(db: SupabaseClient, id: string): Promise<void> {
  const { error } = await db.from('knowledge_base').delete().eq('id', id)
  if (error) throw adminError(error)
}

export async function listAdmins(db: SupabaseClient): Promise<{ email: string; since: string }[]> {
  const { data, error } = await db.rpc('admin_list_admins')
  if (error) throw adminError(error)
  return data as { email: string; since: string }[]
}

export async function setAdminRole(db: SupabaseClient, email: string, admin: boolean): Promise<void> {
  const { error } = await db.rpc('admin_set_role', { p_email: email, p_admin: admin })
  if (error) throw adminError(error)
}

/** The Economy view: CUBE created and destroyed per reason per UTC day, the top earners, the listening rules' refusals. */
export interface EconomyReport {
  days: number
  perDay: { day: string; reason: string; minted: number; burned: number; entries: number }[]
  totals: { minted: number; burned: number; supply: number; ledgerSum: number; accounts: number }
  topEarners: { username: string; earned: number; listens: number; creator: number }[]
  /** Accounts whose welcome CUBE the trust rule still locks, and the ten closest to unlocking it. */
  heldBack: {
    accounts: number
    locked: number
    neededDays: number
    neededSongs: number
    closest: { username: string; listeningDays: number; distinctSongs: number; locked: number }[]
  }
  listenOutcomes: Record<string, number>
}

const n = (v: unknown): number => Number(v ?? 0) || 0

export async function fetchEconomy(db: SupabaseClient, days = 14): Promise<EconomyReport> {
  const { data, error } = await db.rpc('admin_economy', { p_days: days })
  if (error) throw error
  const r = (data ?? {}) as Record<string, unknown>
  const totals = (r.totals ?? {}) as Record<string, unknown>
  const held = (r.held_back ?? {}) as Record<string, unknown>
  const rows = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : [])
  return {
    days: n(r.days),
    perDay: rows(r.per_day).map((d) => ({
      day: String(d.day),
      reason: String(d.reason),
      minted: n(d.minted),
      burned: n(d.burned),
      entries: n(d.entries),
    })),
    totals: {
      minted: n(totals.minted),
      burned: n(totals.burned),
      supply: n(totals.supply),
      ledgerSum: n(totals.ledger_sum),
      accounts: n(totals.accounts),
    },
    topEarners: rows(r.top_earners).map((e) => ({
      username: String(e.username),
      earned: n(e.earned),
      listens: n(e.listens),
      creator: n(e.creator),
    })),
    heldBack: {
      accounts: n(held.accounts),
      locked: n(held.locked),
      neededDays: n(held.needed_days),
      neededSongs: n(held.needed_songs),
      closest: rows(held.closest).map((a) => ({
        username: String(a.username),
        listeningDays: n(a.listening_days),
        distinctSongs: n(a.distinct_songs),
        locked: n(a.locked),
      })),
    },
    listenOutcomes: Object.fromEntries(Object.entries((r.listen_outcomes ?? {}) as Record<string, unknown>).map(([k, v]) => [k, n(v)])),
  }
}
