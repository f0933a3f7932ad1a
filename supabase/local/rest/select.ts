import { runAsApiCaller } from '../core/pre-request.ts'
import { restError, sendJson } from '../core/errors.ts'
import type { TableHandler } from './context.ts'
import { nonNegativeInt, orderClause, whereClause } from './filters.ts'
import { checkEmbedParams, parseSelect, selectList } from './select-list.ts'
import { Params, tableRef } from './sql.ts'
import { preferences, singleRow, wantsSingle } from './request.ts'

/** GET/HEAD /rest/v1/<table>: select with embeds, filters, order, paging and counts. */
export const select: TableHandler = async ({ db, catalog }, { req, res, url }, table, caller) => {
  const params = new Params()
  const embed = { url, consumed: new Set<string>() }
  const list = selectList(catalog(), table, '_t0', parseSelect(url.searchParams.get('select')), 0, embed)
  checkEmbedParams(embed)
  const where = whereClause(table, '_t0', url, params)
  const order = orderClause(table, '_t0', url.searchParams.get('order'))
  const limit = nonNegativeInt('limit', url.searchParams.get('limit'))
  const offset = nonNegativeInt('offset', url.searchParams.get('offset')) ?? 0
  const page = `${limit !== undefined ? ` limit ${limit}` : ''}${offset ? ` offset ${offset}` : ''}`
  const counted = preferences(req).get('count')
  if (counted !== undefined && counted !== 'exact' && counted !== 'planned' && counted !== 'estimated')
    throw restError(400, 'PGRST100', `unknown count preference "${counted}"`)
  const single = wantsSingle(req)
  const head = req.method === 'HEAD'
  const { body, total } = await runAsApiCaller(db, caller, catalog().preRequest, async (tx) => {
    // HEAD (supabase-js `head: true`) only wants the count: the rows are never built.
    const rows = head
      ? undefined
      : await tx.query<{ body: string }>(
          `select coalesce(json_agg(_r), '[]')::text as body from (select ${list} from ${tableRef(table.name)} ` +
            `_t0${where}${order}${page}) _r`,
          params.values,
        )
    let total: number | undefined
    if (counted)
      total = Number(
        (await tx.query<{ n: string }>(`select count(*)::text as n from ${tableRef(table.name)} _t0${where}`, params.values)).rows[0]!.n,
      )
    return { body: rows?.rows[0]!.body, total }
  })
  if (body === undefined) {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Range': `*/${total ?? '*'}` }).end()
    return
  }
  const count = (JSON.parse(body) as unknown[]).length
  const range = count === 0 ? `*/${total ?? '*'}` : `${offset}-${offset + count - 1}/${total ?? '*'}`
  sendJson(res, 200, single ? singleRow(body) : body, { 'Content-Range': range })
}
