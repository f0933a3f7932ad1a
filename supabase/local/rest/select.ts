import type { TableHandler } from './context.ts'
import { orderClause, whereClause } from './filters.ts'
import { checkSingle, negotiate } from './media.ts'
import { preferencesOf } from './prefer.ts'
import { pageClause, requestedRange } from './range.ts'
import { inRequestTransaction } from './request-transaction.ts'
import { aggregateSql, countRows, sendRead } from './respond.ts'
import { checkEmbedParams, parseSelect, selectList } from './select-list.ts'
import { Params, tableRef } from './sql.ts'

/** GET/HEAD /rest/v1/<table>: select with embeds, filters, order, paging (limit/offset, Range), counts and media types. */
export const select: TableHandler = async (context, { req, res, url }, table, caller) => {
  const { catalog } = context
  const prefs = preferencesOf(req)
  const media = negotiate(req)
  const range = requestedRange(req, url)
  const params = new Params()
  const embed = { url, consumed: new Set<string>() }
  const list = selectList(catalog(), table, '_t0', parseSelect(url.searchParams.get('select')), 0, embed)
  checkEmbedParams(embed)
  const where = whereClause(table, '_t0', url, params)
  const order = orderClause(table, '_t0', url.searchParams.get('order'))
  const head = req.method === 'HEAD'
  const answer = await inRequestTransaction(
    context,
    caller,
    prefs,
    async (tx) => {
      // HEAD (supabase-js `head: true`) wants the count and the range: the rows are counted, never built.
      const inner = `select ${list} from ${tableRef(table.name)} _t0${where}${order}${pageClause(range)}`
      const row = (await tx.query<{ n: string; body: string | null }>(aggregateSql(inner, media, 'rows', !head), params.values)).rows[0]!
      const returned = Number(row.n)
      checkSingle(media, returned)
      const total = await countRows(tx, prefs.count, `select 1 from ${tableRef(table.name)} _t0${where}`, params.values)
      return { returned, total, body: row.body }
    },
    { readOnly: true },
  )
  sendRead(req, res, { ...answer, range, media, prefs, action: 'read' })
}
