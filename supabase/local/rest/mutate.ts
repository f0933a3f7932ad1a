import type { Caller } from '../core/caller.ts'
import type { Queryable } from '../core/db.ts'
import type { ApiRequest } from '../core/router.ts'
import type { Table } from './catalog.ts'
import type { RestContext } from './context.ts'
import { bodyAggregate, checkSingle, negotiate } from './media.ts'
import { checkMaxAffected, preferenceApplied, preferencesOf } from './prefer.ts'
import { contentRange } from './range.ts'
import { inRequestTransaction } from './request-transaction.ts'
import { checkEmbedParams, parseSelect, selectList } from './select-list.ts'
import type { Params } from './sql.ts'

/** Counts, in an upsert's ON CONFLICT DO UPDATE, the rows that were updated rather than inserted (PostgREST's pgrst.inserted). */
export const COUNT_UPDATED =
  "set_config('pgrst.updated', (coalesce(nullif(current_setting('pgrst.updated', true), '')::int, 0) + 1)::text, true) <> '-1'"

export interface Mutation {
  action: 'insert' | 'update' | 'delete'
  /** The INSERT/UPDATE/DELETE on `<table> as _t0`, without RETURNING. */
  statement: string
  params: Params
  /** An insert with resolution=merge-duplicates and a conflict target: 200 when it only updated. */
  merge?: boolean
  /** The insert has a conflict target, so Prefer: resolution applies (and is reported). */
  resolutionApplies?: boolean
}

/**
 * Runs a data-changing statement as the caller and answers as PostgREST does (Response.hs):
 * status by `Prefer: return` (and, for an upsert, whether any row was inserted), Content-Range
 * with the affected count when `count` asks, Location for `return=headers-only`, .single() and
 * `max-affected` checked before commit.
 */
export async function mutate(context: RestContext, { req, res, url }: ApiRequest, table: Table, caller: Caller, m: Mutation) {
  const { catalog } = context
  const prefs = preferencesOf(req)
  const media = negotiate(req)
  const representation = prefs.return === 'representation'
  const location = m.action === 'insert' && prefs.return === 'headers-only'
  const embed = { url, consumed: new Set<string>() }
  const list = selectList(catalog(), table, '_t0', parseSelect(url.searchParams.get('select')), 0, embed)
  checkEmbedParams(embed)
  const result = await inRequestTransaction(context, caller, prefs, async (tx: Queryable) => {
    if (m.merge) await tx.query("select set_config('pgrst.updated', '0', true)")
    // Without a representation PostgREST returns `1`: no column is read, so SELECT policies do not apply.
    const rowsRead = representation || location
    const body = representation ? bodyAggregate(media, 'rows') : location ? `(select json_agg(_m) from _m)::text` : 'null::text'
    const { rows } = await tx.query<{ n: string; body: string | null }>(
      `with _m as (${m.statement} returning ${rowsRead ? '_t0.*' : '1'}), ` +
        `_src as (${rowsRead ? `select ${list} from _m _t0` : 'select 1 from _m'}) ` +
        `select count(*)::text as n, ${body} as body from _src _r`,
      m.params.values,
    )
    const affected = Number(rows[0]!.n)
    checkSingle(media, affected)
    if (m.action !== 'insert') checkMaxAffected(prefs, affected)
    const updated = m.merge
      ? Number((await tx.query<{ n: string | null }>("select current_setting('pgrst.updated', true) as n")).rows[0]!.n ?? 0)
      : 0
    return { affected, inserted: affected - updated, body: rows[0]!.body }
  })
  const counted = prefs.count === 'exact' || prefs.count === 'estimated' ? result.affected : undefined
  const headers: Record<string, string> = {
    'Content-Range': m.action === 'update' ? contentRange(0, result.affected - 1, counted) : contentRange(1, 0, counted),
    ...preferenceApplied(prefs, m.action, m.resolutionApplies),
  }
  const status = m.action === 'insert' ? (m.merge && result.inserted <= 0 ? 200 : 201) : representation ? 200 : 204
  if (location && result.affected === 1 && table.primaryKey.length) {
    const row = (JSON.parse(result.body!) as Record<string, unknown>[])[0]!
    // http-types' renderSimpleQuery, as PostgREST writes it: percent-encoding with '+' for spaces.
    const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+')
    const query = table.primaryKey.map((k) => `${encode(k)}=eq.${encode(String(row[k] ?? ''))}`).join('&')
    headers.Location = `/${table.name}?${query}`
  }
  if (!representation) {
    res.writeHead(status, headers).end()
    return
  }
  const text = result.body ?? ''
  res.writeHead(status, { ...headers, 'Content-Type': media.contentType, 'Content-Length': Buffer.byteLength(text) }).end(text)
}
