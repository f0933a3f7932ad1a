import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Queryable } from '../core/db.ts'
import { sendJson } from '../core/errors.ts'
import { bodyAggregate, type Media, type Returns } from './media.ts'
import { preferenceApplied, type Action, type Preferences } from './prefer.ts'
import { rangeStatus, type RowRange } from './range.ts'

/** Hosted Supabase's db-max-rows default: `count=estimated` is exact up to it and the planner's guess beyond (MainTx.hs). */
const MAX_ROWS = 1000

/** `select` over the rows of `inner` (the CTE `_src`): how many there are and the body the media type asks for. */
export const aggregateSql = (inner: string, media: Media, returns: Returns, withBody: boolean): string =>
  `with _src as materialized (${inner}) select count(*)::text as n, ${withBody ? bodyAggregate(media, returns) : 'null::text'} ` +
  `as body from _src _r`

/** Prefer: count=… over the rows `fromWhere` (a `select 1 from … where …`): exact, the planner's estimate, or both. */
export async function countRows(
  tx: Queryable,
  count: Preferences['count'],
  fromWhere: string,
  params: unknown[],
): Promise<number | undefined> {
  if (count === undefined) return undefined
  const exact = async () => Number((await tx.query<{ n: string }>(`select count(*)::text as n from (${fromWhere}) _c`, params)).rows[0]!.n)
  const planned = async () => {
    const row = (await tx.query<Record<string, unknown>>(`explain (format json) ${fromWhere}`, params)).rows[0]!
    const raw = Object.values(row)[0]
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[]
    return Math.round(plan[0]!.Plan['Plan Rows'])
  }
  if (count === 'exact') return exact()
  if (count === 'planned') return planned()
  const total = await exact()
  return total > MAX_ROWS ? Math.max(total, await planned()) : total
}

/** The answer to a read (table GET/HEAD or RPC): status and Content-Range from the range and count, the body in its media type. */
export function sendRead(
  req: IncomingMessage,
  res: ServerResponse,
  answer: {
    range: RowRange
    returned: number
    total: number | undefined
    media: Media
    body: string | null
    prefs: Preferences
    action: Action
  },
): void {
  const { status, header, error } = rangeStatus(answer.range, answer.returned, answer.total)
  const applied = preferenceApplied(answer.prefs, answer.action)
  if (error) {
    sendJson(res, error.status, error.body, header)
    return
  }
  const text = answer.body ?? ''
  const headers: Record<string, string | number> = { 'Content-Type': answer.media.contentType, ...header, ...applied }
  if (req.method === 'HEAD') {
    res.writeHead(status, headers).end()
    return
  }
  res.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(text) }).end(text)
}
