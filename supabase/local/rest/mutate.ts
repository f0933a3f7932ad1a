import type { Caller } from '../core/caller.ts'
import { runAsApiCaller } from '../core/pre-request.ts'
import type { Queryable } from '../core/db.ts'
import { sendJson } from '../core/errors.ts'
import type { ApiRequest } from '../core/router.ts'
import type { Table } from './catalog.ts'
import type { RestContext } from './context.ts'
import { checkEmbedParams, parseSelect, selectList } from './select-list.ts'
import type { Params } from './sql.ts'
import { preferences, singleRow, wantsSingle } from './request.ts'

/**
 * Runs a data-changing statement (insert, update, delete) as the caller and answers as PostgREST
 * does for `Prefer: return=...`: 201/204 without a body, or the written rows through `select`.
 */
export async function mutate(
  { db, catalog }: RestContext,
  { req, res, url }: ApiRequest,
  table: Table,
  caller: Caller,
  statement: string,
  params: Params,
  createdStatus: number,
) {
  const representation = preferences(req).get('return') === 'representation'
  const single = wantsSingle(req)
  const embed = { url, consumed: new Set<string>() }
  const list = selectList(catalog(), table, '_t0', parseSelect(url.searchParams.get('select')), 0, embed)
  checkEmbedParams(embed)
  const body = await runAsApiCaller(db, caller, catalog().preRequest, async (tx: Queryable) => {
    if (!representation && !single) {
      await tx.query(statement, params.values)
      return undefined
    }
    const { rows } = await tx.query<{ body: string }>(
      `with _m as (${statement} returning _t0.*) select coalesce(json_agg(_r), '[]')::text as body from (select ${list} from _m _t0) _r`,
      params.values,
    )
    const text = rows[0]!.body
    return single ? singleRow(text) : text
  })
  if (!representation) {
    res.writeHead(createdStatus === 201 ? 201 : 204, { 'Content-Range': '*/*' }).end()
    return
  }
  sendJson(res, createdStatus === 201 ? 201 : 200, body, { 'Content-Range': '*/*' })
}
